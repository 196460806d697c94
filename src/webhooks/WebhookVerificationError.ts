/**
 * Why a webhook was not accepted, as a stable code:
 *
 * - `ERR_WEBHOOK_HEADER_MISSING`: no `service-timestamp` or no `service-signature` header;
 * - `ERR_WEBHOOK_TIMESTAMP_MALFORMED`: `service-timestamp` is not an RFC 3339 date-time;
 * - `ERR_WEBHOOK_TIMESTAMP_TOO_OLD` / `ERR_WEBHOOK_TIMESTAMP_IN_FUTURE`: outside the tolerance;
 * - `ERR_WEBHOOK_SIGNATURE_MALFORMED`: not 128 hex digits nor 88 characters of padded base64;
 * - `ERR_WEBHOOK_SIGNATURE_MISMATCH`: no secret produces this signature: the body, the timestamp or
 *   the signature was altered, or the secret is wrong;
 * - `ERR_WEBHOOK_BODY_NOT_JSON`: the body is authentic but not JSON;
 * - `ERR_WEBHOOK_BODY_PARSED`: the body was given as a parsed object instead of the raw text;
 * - `ERR_WEBHOOK_BODY_USED`: the request body had already been read;
 * - `ERR_WEBHOOK_SECRET_INVALID`: the secret is empty or not a string or bytes;
 * - `ERR_WEBHOOK_INVALID_INPUT`: an argument of the wrong kind (body, headers, options).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookVerificationErrorCode } from "messaging-events/webhooks";
 *
 * const retryable: WebhookVerificationErrorCode[] = ["ERR_WEBHOOK_TIMESTAMP_TOO_OLD"];
 * ```
 */
export type WebhookVerificationErrorCode =
  | "ERR_WEBHOOK_HEADER_MISSING"
  | "ERR_WEBHOOK_TIMESTAMP_MALFORMED"
  | "ERR_WEBHOOK_TIMESTAMP_TOO_OLD"
  | "ERR_WEBHOOK_TIMESTAMP_IN_FUTURE"
  | "ERR_WEBHOOK_SIGNATURE_MALFORMED"
  | "ERR_WEBHOOK_SIGNATURE_MISMATCH"
  | "ERR_WEBHOOK_BODY_NOT_JSON"
  | "ERR_WEBHOOK_BODY_PARSED"
  | "ERR_WEBHOOK_BODY_USED"
  | "ERR_WEBHOOK_SECRET_INVALID"
  | "ERR_WEBHOOK_INVALID_INPUT";

/**
 * The one error of webhook verification: `verifyWebhook` rejects with it and `safeVerifyWebhook`
 * returns it. Its {@link WebhookVerificationError.code} is stable; its message says what to fix
 * and never contains the secret or the expected signature.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { WebhookVerificationError, verifyWebhook } from "messaging-events/webhooks";
 *
 * try {
 *   await verifyWebhook({ body: "{}", headers: {}, secret: "s3cr3t" });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) console.log(error.code); // "ERR_WEBHOOK_HEADER_MISSING"
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  /** Why the webhook was not accepted. */
  declare readonly code: WebhookVerificationErrorCode;

  /**
   * Creates the error. The library creates these; applications normally only read them.
   *
   * @param code - Why the webhook was not accepted.
   * @param message - What to fix; never the secret or a signature.
   */
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.code = code;
  }
}

/**
 * Tells whether a value is a {@link WebhookVerificationError}, also when it comes from another
 * realm or another copy of this library, where `instanceof` fails.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isWebhookVerificationError } from "messaging-events/webhooks";
 *
 * isWebhookVerificationError(new Error("x")); // false
 * ```
 */
export function isWebhookVerificationError(value: unknown): value is WebhookVerificationError {
  return (
    value instanceof WebhookVerificationError ||
    (value instanceof Error &&
      value.name === "WebhookVerificationError" &&
      typeof (value as { code?: unknown }).code === "string")
  );
}

/** @internal The part of a code after `ERR_WEBHOOK_`. */
type Reason = WebhookVerificationErrorCode extends `ERR_WEBHOOK_${infer R}` ? R : never;

/** @internal Throws the error with code `ERR_WEBHOOK_<reason>`. */
export const fail = (reason: Reason, message: string): never => {
  throw new WebhookVerificationError(`ERR_WEBHOOK_${reason}`, message);
};
