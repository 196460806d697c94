/**
 * Why a webhook was not accepted, as a stable code. The request is refused (answer 401, or 413 for
 * a body too large):
 *
 * - `ERR_WEBHOOK_HEADER_MISSING`: no `service-timestamp` or no `service-signature` header;
 * - `ERR_WEBHOOK_TIMESTAMP_MALFORMED`: `service-timestamp` is not an RFC 3339 date-time;
 * - `ERR_WEBHOOK_TIMESTAMP_TOO_OLD` / `ERR_WEBHOOK_TIMESTAMP_IN_FUTURE`: outside the tolerance;
 * - `ERR_WEBHOOK_SIGNATURE_MALFORMED`: not one of the four accepted spellings of a 64-byte MAC
 *   (lowercase hex, uppercase hex, canonical padded base64, canonical unpadded base64url);
 * - `ERR_WEBHOOK_SIGNATURE_MISMATCH`: no secret produces this signature: the body, the timestamp or
 *   the signature was altered, or the secret is wrong;
 * - `ERR_WEBHOOK_BODY_NOT_JSON`: the body is authentic but not UTF-8 JSON;
 * - `ERR_WEBHOOK_BODY_TOO_LARGE`: the request body is larger than `maxBodyBytes`;
 * - `ERR_WEBHOOK_ABORTED`: the `signal` aborted while the request body was read;
 * - `ERR_WEBHOOK_REPLAYED`: the same signed request was already accepted (with a `replayGuard`).
 *
 * The replay check could not answer (its store is down: answer 503 so that the sender retries;
 * {@link WebhookVerificationError.kind} is `"unavailable"`):
 *
 * - `ERR_WEBHOOK_REPLAY_CHECK_FAILED`: the `replayGuard` rejected; its error is the `cause`.
 *
 * The receiving code is wired wrong (answer 500 and fix the code; {@link WebhookVerificationError.kind}
 * is `"configuration"`):
 *
 * - `ERR_WEBHOOK_BODY_PARSED`: the body was given as a parsed object instead of the raw bytes;
 * - `ERR_WEBHOOK_BODY_USED`: the request body had already been read, or is locked;
 * - `ERR_WEBHOOK_SECRET_INVALID`: the secret is empty or not a string or bytes;
 * - `ERR_WEBHOOK_INVALID_INPUT`: an argument of the wrong kind (body, headers, options), or an
 *   unexpected failure, kept as the error's `cause`.
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
  | "ERR_WEBHOOK_BODY_TOO_LARGE"
  | "ERR_WEBHOOK_ABORTED"
  | "ERR_WEBHOOK_REPLAYED"
  | "ERR_WEBHOOK_REPLAY_CHECK_FAILED"
  | "ERR_WEBHOOK_BODY_PARSED"
  | "ERR_WEBHOOK_BODY_USED"
  | "ERR_WEBHOOK_SECRET_INVALID"
  | "ERR_WEBHOOK_INVALID_INPUT";

/**
 * Who must act on a {@link WebhookVerificationError}: `"configuration"` when the receiving code is
 * wired wrong (a parsed or already-read body, a bad secret, an argument of the wrong kind: answer
 * 500 and fix the code), `"authentication"` when the request itself is refused (missing or bad
 * headers, out of the time window, a signature mismatch, a replay, a body too large or not JSON:
 * answer 401, or 413 for `ERR_WEBHOOK_BODY_TOO_LARGE`), `"unavailable"` when the replay check could
 * not answer (answer 503: the sender retries).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookVerificationErrorKind } from "messaging-events/webhooks";
 *
 * const statusFor = (kind: WebhookVerificationErrorKind) =>
 *   kind === "configuration" ? 500 : kind === "unavailable" ? 503 : 401;
 * ```
 */
export type WebhookVerificationErrorKind = "configuration" | "authentication" | "unavailable";

/**
 * The one error of webhook verification: the `verify…` functions reject with it and the
 * `safeVerify…` ones return it. Its {@link WebhookVerificationError.code} is stable and its
 * {@link WebhookVerificationError.kind} tells a configuration error (answer 500) from a refused
 * request (answer 401). Its message says what to fix and never contains the secret, the expected
 * signature or the received one; an unexpected failure is kept as its `cause`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { WebhookVerificationError, verifyWebhookSignature } from "messaging-events/webhooks";
 *
 * try {
 *   await verifyWebhookSignature({ body: "{}", headers: {}, secret: "s3cr3t" });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) console.log(error.code, error.kind); // "ERR_WEBHOOK_HEADER_MISSING" "authentication"
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  /** Why the webhook was not accepted. */
  declare readonly code: WebhookVerificationErrorCode;
  /** `"configuration"` (answer 500, fix the code) or `"authentication"` (the request is refused: 401). */
  declare readonly kind: WebhookVerificationErrorKind;

  /**
   * Creates the error. The library creates these; applications normally only read them.
   *
   * @param code - Why the webhook was not accepted.
   * @param message - What to fix; never the secret or a signature.
   * @param options - `cause`: the failure this error wraps, if any.
   */
  constructor(code: WebhookVerificationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebhookVerificationError";
    this.code = code;
    this.kind = /PARSED|USED|SECRET|INPUT/.test(code)
      ? "configuration"
      : code === "ERR_WEBHOOK_REPLAY_CHECK_FAILED"
        ? "unavailable"
        : "authentication";
  }
}

/**
 * Tells whether a value is a {@link WebhookVerificationError}, also when it comes from another
 * realm or another copy of this library, where `instanceof` fails. Returns `false`, never throws,
 * for anything else (a revoked proxy, a throwing getter).
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
  try {
    return (
      value instanceof WebhookVerificationError ||
      (value instanceof Error &&
        value.name === "WebhookVerificationError" &&
        typeof (value as { code?: unknown }).code === "string")
    );
  } catch {
    return false;
  }
}

/** @internal The part of a code after `ERR_WEBHOOK_`. */
type Reason = WebhookVerificationErrorCode extends `ERR_WEBHOOK_${infer R}` ? R : never;

/** @internal Throws the error with code `ERR_WEBHOOK_<reason>`. */
export const fail = (reason: Reason, message: string, cause?: unknown): never => {
  throw new WebhookVerificationError(
    `ERR_WEBHOOK_${reason}`,
    message,
    cause === undefined ? undefined : { cause },
  );
};
