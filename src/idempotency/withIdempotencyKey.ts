import { EventValidationError } from "../events/EventValidationError.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import {
  createIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  IdempotencyKeyError,
  isValidIdempotencyKey,
} from "./idempotencyKey.js";

/**
 * Puts an idempotency key in both places the service reads it from: `data.meta["idempotency-key"]`
 * of a copy of the document, and the `Service-Idempotency-Key` header. Without `key`, a new UUID v4
 * is used. The document passed in is not modified. Throws an {@link IdempotencyKeyError} if `key`
 * is not a valid key, and an `EventValidationError` (`ERR_INVALID_EVENT_DOCUMENT`) if `document` is
 * not an object with a `data` object.
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
  if (!isValidIdempotencyKey(key)) throw new IdempotencyKeyError("withIdempotencyKey");
  const data: unknown = isPlainObject(document) ? document.data : undefined;
  if (!isPlainObject(data)) {
    const found = isPlainObject(document)
      ? `a data member that is ${withArticle(describeValue(data))}`
      : withArticle(describeValue(document));
    throw new EventValidationError("ERR_INVALID_EVENT_DOCUMENT", undefined, [
      {
        code: "invalid_type",
        path: isPlainObject(document) ? ["data"] : [],
        pointer: isPlainObject(document) ? "/data" : "",
        message: `withIdempotencyKey needs a JSON:API document with a data object, not ${found}`,
        params: { expected: "object", received: describeValue(isPlainObject(document) ? data : document) },
      },
    ]);
  }
  const meta: unknown = data.meta;
  const keyed = { ...data, meta: { ...(isPlainObject(meta) ? meta : {}), [IDEMPOTENCY_KEY_META]: key } };
  return {
    document: { ...document, data: keyed } as never,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key } as { "Service-Idempotency-Key": string },
    key,
  };
}
