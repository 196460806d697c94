import { codePointLength } from "../internal/codePointLength.js";

/**
 * The request header that carries the idempotency key (spec 4.1): `Service-Idempotency-Key`.
 * Header names are matched case-insensitively everywhere (ruling 15).
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { IDEMPOTENCY_KEY_HEADER } from "messaging-events/idempotency";
 *
 * const headers = { [IDEMPOTENCY_KEY_HEADER]: "5b7c…" };
 * ```
 */
export const IDEMPOTENCY_KEY_HEADER = "Service-Idempotency-Key";

/**
 * The member of the resource's `meta` that carries the idempotency key: `idempotency-key`.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { IDEMPOTENCY_KEY_META } from "messaging-events/idempotency";
 *
 * const meta = { [IDEMPOTENCY_KEY_META]: "5b7c…" };
 * ```
 */
export const IDEMPOTENCY_KEY_META = "idempotency-key";

/**
 * Creates a new idempotency key: a random UUID v4 from `crypto.randomUUID()` (ruling 14).
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createIdempotencyKey } from "messaging-events/idempotency";
 *
 * const key = createIdempotencyKey(); // "3b241101-e2bb-4255-8caf-4136c566a962"
 * ```
 */
export function createIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * Tells whether a value is an acceptable idempotency key (ruling 14): a string of 1 to 255
 * characters (Unicode code points) that is not only white space.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isValidIdempotencyKey } from "messaging-events/idempotency";
 *
 * isValidIdempotencyKey("order-42/attempt"); // true
 * isValidIdempotencyKey("   "); // false
 * ```
 */
export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === "string" && /\S/.test(value) && codePointLength(value) <= 255;
}

/**
 * Tells whether an idempotency key can travel unchanged in an HTTP header, as the client sends it:
 * no white space at either end (HTTP strips it) and only characters a header value can carry
 * (printable Latin-1, no line breaks). A key that fails this can still be valid (ruling 14) in a
 * document, but header and meta would then differ.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isHeaderSafeIdempotencyKey } from "messaging-events/idempotency";
 *
 * isHeaderSafeIdempotencyKey("order-42"); // true
 * isHeaderSafeIdempotencyKey(" order-42"); // false
 * isHeaderSafeIdempotencyKey("заказ-42"); // false
 * ```
 */
export function isHeaderSafeIdempotencyKey(value: unknown): value is string {
  return isValidIdempotencyKey(value) && value === value.trim() && /^[\t\x20-\x7e\xa0-\xff]*$/.test(value);
}
