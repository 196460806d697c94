import {
  createIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  isHeaderSafeIdempotencyKey,
} from "./idempotencyKey.js";

/**
 * Puts an idempotency key in both places the spec names (rule 1 of spec 4.1, ruling 15):
 * `data.meta["idempotency-key"]` of a copy of the document, and the `Service-Idempotency-Key`
 * header. Without `key`, a new UUID v4 is used. The document passed in is not modified. Throws a
 * `TypeError` if `key` is not a valid key (ruling 14).
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { withIdempotencyKey } from "messaging-events/idempotency";
 *
 * const { document, headers } = withIdempotencyKey(
 *   { data: { type: "events", attributes: { type: "s.room.close", content: {} } } },
 *   "order-42",
 * );
 * console.log(headers["Service-Idempotency-Key"], document.data.meta["idempotency-key"]); // order-42 order-42
 * ```
 */
export function withIdempotencyKey<
  D extends {
    readonly data: { readonly meta?: Readonly<Record<string, unknown>> } & Readonly<Record<string, unknown>>;
  },
>(
  document: D,
  key: string = createIdempotencyKey(),
): {
  document: D & {
    data: D["data"] & { meta: NonNullable<D["data"]["meta"]> & { "idempotency-key": string } };
  };
  headers: { "Service-Idempotency-Key": string };
  key: string;
} {
  if (!isHeaderSafeIdempotencyKey(key)) {
    throw new TypeError(
      "withIdempotencyKey: the key must be a non-blank string of at most 255 printable Latin-1 characters, without spaces at either end, to travel unchanged in the header",
    );
  }
  const data = { ...document.data, meta: { ...document.data.meta, [IDEMPOTENCY_KEY_META]: key } };
  return {
    document: { ...document, data } as never,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key } as { "Service-Idempotency-Key": string },
    key,
  };
}
