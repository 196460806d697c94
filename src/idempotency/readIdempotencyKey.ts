import { type HeaderReading, readHeader } from "../internal/headerValue.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_META, isValidIdempotencyKey } from "./idempotencyKey.js";

/**
 * The result of {@link readIdempotencyKey}: `{ success: true, data }` with the key, or
 * `{ success: false, error }` with why there is none to use (`error.reason`) and a sentence that says
 * what to send (`error.message`):
 *
 * - `missing`: neither the header nor `data.meta["idempotency-key"]` is there;
 * - `invalid`: a key is there but is not 1 to 255 visible ASCII characters other than the comma
 *   (a header that was sent twice and joined, `"k1, k2"`, is one of these);
 * - `repeated`: the header was sent more than once, where the headers keep repeats apart (Node);
 * - `mismatch`: the header and the meta member are both there and differ.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { IdempotencyKeyResult } from "messaging-events/idempotency";
 *
 * const result: IdempotencyKeyResult = {
 *   success: false,
 *   error: { reason: "missing", message: "no idempotency key" },
 * };
 * ```
 */
export type IdempotencyKeyResult =
  | { readonly success: true; readonly data: string; readonly error?: undefined }
  | {
      readonly success: false;
      readonly error: {
        /** Why there is no key to use. */
        readonly reason: "missing" | "invalid" | "repeated" | "mismatch";
        /** What to send instead. */
        readonly message: string;
      };
      readonly data?: undefined;
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
 * if (result.success) console.log(result.data); // "order-42"
 * ```
 */
export function readIdempotencyKey(request: {
  /** The request headers: Fetch `Headers`, Node's `req.headers` or a plain record (any letter case). */
  headers?: unknown;
  /** The parsed request document. */
  document?: unknown;
}): IdempotencyKeyResult {
  let fromMeta: unknown;
  let header: HeaderReading | undefined;
  try {
    const data: unknown =
      isPlainObject(request) && isPlainObject(request.document) ? request.document.data : undefined;
    const meta: unknown = isPlainObject(data) ? data.meta : undefined;
    fromMeta = isPlainObject(meta) ? meta[IDEMPOTENCY_KEY_META] : undefined;
    header = readHeader(isPlainObject(request) ? request.headers : undefined, IDEMPOTENCY_KEY_HEADER);
  } catch {
    fromMeta = undefined;
  }
  const fromHeader = header?.value;
  if (fromHeader === undefined && fromMeta === undefined) {
    return {
      success: false,
      error: {
        reason: "missing",
        message: `no idempotency key: send the ${IDEMPOTENCY_KEY_HEADER} header and data.meta["idempotency-key"]`,
      },
    };
  }
  if (header?.repeated) {
    return {
      success: false,
      error: {
        reason: "repeated",
        message: `the ${IDEMPOTENCY_KEY_HEADER} header was sent more than once; send it once`,
      },
    };
  }
  for (const [where, value] of [
    [`the ${IDEMPOTENCY_KEY_HEADER} header`, fromHeader],
    ['data.meta["idempotency-key"]', fromMeta],
  ] as const) {
    if (value !== undefined && !isValidIdempotencyKey(value)) {
      return {
        success: false,
        error: {
          reason: "invalid",
          message: `${where} must be 1 to 255 visible ASCII characters other than the comma${typeof value === "string" && value.includes(",") ? " (a header sent twice arrives joined by a comma)" : ""}`,
        },
      };
    }
  }
  if (fromHeader !== undefined && fromMeta !== undefined && fromHeader !== fromMeta) {
    return {
      success: false,
      error: {
        reason: "mismatch",
        message: `the ${IDEMPOTENCY_KEY_HEADER} header and data.meta["idempotency-key"] differ; send the same key in both`,
      },
    };
  }
  return { success: true, data: (fromHeader ?? fromMeta) as string };
}
