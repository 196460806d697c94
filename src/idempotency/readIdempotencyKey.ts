import { type HeadersLike, headerValue } from "../internal/headerValue.js";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_META, isValidIdempotencyKey } from "./idempotencyKey.js";

/**
 * The result of {@link readIdempotencyKey}: the key, or why there is none to use.
 *
 * - `missing`: neither the header nor `data.meta["idempotency-key"]` is there;
 * - `invalid`: a key is there but is not a non-blank string of at most 255 characters;
 * - `mismatch`: the header and the meta member are both there and differ (ruling 15).
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { IdempotencyKeyResult } from "messaging-events/idempotency";
 *
 * const result: IdempotencyKeyResult = { ok: false, reason: "missing", message: "no idempotency key" };
 * ```
 */
export type IdempotencyKeyResult =
  | { readonly ok: true; readonly key: string; readonly reason?: undefined; readonly message?: undefined }
  | {
      readonly ok: false;
      readonly reason: "missing" | "invalid" | "mismatch";
      readonly message: string;
      readonly key?: undefined;
    };

/**
 * For servers: reads the idempotency key of a create request from the `Service-Idempotency-Key`
 * header (any letter case) and from `data.meta["idempotency-key"]`. When both are there they must
 * be equal. Never throws, whatever it is given.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { readIdempotencyKey } from "messaging-events/idempotency";
 *
 * const result = readIdempotencyKey({
 *   headers: { "service-idempotency-key": "order-42" },
 *   document: { data: { type: "events", meta: { "idempotency-key": "order-42" } } },
 * });
 * if (result.ok) console.log(result.key); // "order-42"
 * ```
 */
export function readIdempotencyKey(request: {
  headers?: HeadersLike | unknown;
  document?: unknown;
}): IdempotencyKeyResult {
  let fromMeta: unknown;
  try {
    const meta = (request?.document as { data?: { meta?: Record<string, unknown> } } | undefined)?.data?.meta;
    fromMeta = typeof meta === "object" && meta !== null ? meta[IDEMPOTENCY_KEY_META] : undefined;
  } catch {
    fromMeta = undefined;
  }
  let fromHeader: string | undefined;
  try {
    fromHeader = headerValue(request?.headers, IDEMPOTENCY_KEY_HEADER);
  } catch {
    fromHeader = undefined;
  }
  if (fromHeader === undefined && fromMeta === undefined) {
    return {
      ok: false,
      reason: "missing",
      message: `no idempotency key: send the ${IDEMPOTENCY_KEY_HEADER} header and data.meta["idempotency-key"]`,
    };
  }
  for (const [where, value] of [
    [`the ${IDEMPOTENCY_KEY_HEADER} header`, fromHeader],
    ['data.meta["idempotency-key"]', fromMeta],
  ] as const) {
    if (value !== undefined && !isValidIdempotencyKey(value)) {
      return {
        ok: false,
        reason: "invalid",
        message: `${where} must be a non-blank string of at most 255 characters`,
      };
    }
  }
  if (fromHeader !== undefined && fromMeta !== undefined && fromHeader !== fromMeta) {
    return {
      ok: false,
      reason: "mismatch",
      message: `the ${IDEMPOTENCY_KEY_HEADER} header and data.meta["idempotency-key"] differ; send the same key in both`,
    };
  }
  return { ok: true, key: (fromHeader ?? fromMeta) as string };
}
