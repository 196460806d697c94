import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  isValidIdempotencyKey,
} from "../idempotency/idempotencyKey.js";
import { readIdempotencyKey } from "../idempotency/readIdempotencyKey.js";
import { singleError } from "./errorResponse.js";

/**
 * The request's idempotency key, from the header or `data.meta` (`undefined` when it sent none), or
 * the 400 that answers a key that is invalid, repeated, or different in the two places.
 */
export function readKey(
  request: Request,
  parsed: unknown,
): { success: true; key: string | undefined } | { success: false; response: Response } {
  const result = readIdempotencyKey({ headers: request.headers, document: parsed });
  // A valid key has no comma, so a header sent twice and joined by Fetch ("k1, k2") is never one.
  if (result.success && isValidIdempotencyKey(result.data)) return { success: true, key: result.data };
  if (result.error?.reason === "missing") return { success: true, key: undefined };
  if (result.error?.reason === "mismatch") {
    return {
      success: false,
      response: singleError(400, "ERR_IDEMPOTENCY_KEY_MISMATCH", result.error.message, {
        pointer: `/data/meta/${IDEMPOTENCY_KEY_META}`,
      }),
    };
  }
  const header = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (header !== null && !isValidIdempotencyKey(header)) {
    return {
      success: false,
      response: singleError(
        400,
        "ERR_IDEMPOTENCY_KEY_INVALID",
        `the ${IDEMPOTENCY_KEY_HEADER} header is repeated or invalid: send it once, with 1 to 255 visible ASCII characters other than the comma`,
      ),
    };
  }
  return {
    success: false,
    response: singleError(
      400,
      "ERR_IDEMPOTENCY_KEY_INVALID",
      'data.meta["idempotency-key"] must be a string of 1 to 255 visible ASCII characters other than the comma',
      { pointer: `/data/meta/${IDEMPOTENCY_KEY_META}` },
    ),
  };
}
