/**
 * The request header that carries the idempotency key: `Service-Idempotency-Key`.
 * Header names are matched case-insensitively everywhere.
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
 * Creates a new idempotency key: a random UUID v4 from `crypto.randomUUID()`.
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
 * @internal Visible ASCII ("!" to "~") without the comma, 1 to 255 characters: what travels
 * unchanged in a header, and never what a proxy or Fetch makes of a repeated header ("k1, k2").
 */
export const IDEMPOTENCY_KEY_PATTERN: RegExp = /^[!-+\--~]{1,255}$/;

/**
 * Tells whether a value is an acceptable idempotency key: 1 to 255 characters of visible ASCII
 * (`!` to `~`) other than the comma. Such a key travels unchanged in an HTTP header, and a header
 * that was repeated and joined (`"k1, k2"`) is never one. Generated keys (UUID v4) always are. Never
 * throws.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isValidIdempotencyKey } from "messaging-events/idempotency";
 *
 * isValidIdempotencyKey("order-42/attempt"); // true
 * isValidIdempotencyKey("order 42"); // false: a space
 * isValidIdempotencyKey("k1, k2"); // false: a repeated header, joined
 * ```
 */
export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === "string" && IDEMPOTENCY_KEY_PATTERN.test(value);
}

/**
 * The same test as {@link isValidIdempotencyKey}: every valid key can travel in a header.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @deprecated Use {@link isValidIdempotencyKey}; the two are now the same rule.
 *
 * @example
 * ```ts
 * import { isHeaderSafeIdempotencyKey } from "messaging-events/idempotency";
 *
 * isHeaderSafeIdempotencyKey("order-42"); // true
 * ```
 */
export function isHeaderSafeIdempotencyKey(value: unknown): value is string {
  return isValidIdempotencyKey(value);
}

/**
 * A key that is not a valid idempotency key was given to a function that sends or stores it. It is
 * a `TypeError` (a programming error) with the stable code `ERR_INVALID_IDEMPOTENCY_KEY`; its
 * message never repeats the key.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { IdempotencyKeyError, withIdempotencyKey } from "messaging-events/idempotency";
 *
 * try {
 *   withIdempotencyKey({ data: { type: "events" } }, "order 42");
 * } catch (error) {
 *   if (error instanceof IdempotencyKeyError) console.log(error.code); // "ERR_INVALID_IDEMPOTENCY_KEY"
 * }
 * ```
 */
export class IdempotencyKeyError extends TypeError {
  /** Always `ERR_INVALID_IDEMPOTENCY_KEY`. */
  readonly code = "ERR_INVALID_IDEMPOTENCY_KEY";

  /**
   * Creates the error.
   *
   * @param where - The function that refused the key, for the message.
   */
  constructor(where: string) {
    super(
      `${where}: an idempotency key must be 1 to 255 visible ASCII characters ("!" to "~") other than the comma`,
    );
    this.name = "IdempotencyKeyError";
  }
}
