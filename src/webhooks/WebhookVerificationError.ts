/**
 * Why a webhook was not accepted, as a stable code. The request is refused
 * ({@link WebhookVerificationError.kind} is `"authentication"`; {@link WebhookVerificationError.status}
 * is 401 unless said otherwise):
 *
 * - `ERR_WEBHOOK_HEADER_MISSING`: no `service-timestamp` or no `service-signature` header;
 * - `ERR_WEBHOOK_HEADER_REPEATED`: `service-timestamp` or `service-signature` came more than once
 *   (in Node's array form, or as two spellings of the name in a record), so which one was signed
 *   is unknown;
 * - `ERR_WEBHOOK_TIMESTAMP_MALFORMED`: `service-timestamp` is not an RFC 3339 date-time;
 * - `ERR_WEBHOOK_TIMESTAMP_TOO_OLD` / `ERR_WEBHOOK_TIMESTAMP_IN_FUTURE`: outside the tolerance;
 * - `ERR_WEBHOOK_SIGNATURE_MALFORMED`: not one of the four accepted spellings of a 64-byte MAC
 *   (lowercase hex, uppercase hex, canonical padded base64, canonical unpadded base64url);
 * - `ERR_WEBHOOK_SIGNATURE_MISMATCH`: no secret produces this signature: the body, the timestamp or
 *   the signature was altered, or the secret is wrong;
 * - `ERR_WEBHOOK_BODY_NOT_JSON`: the body is authentic but not UTF-8 JSON;
 * - `ERR_WEBHOOK_BODY_TOO_LARGE`: the request body is larger than `maxBodyBytes` (status 413);
 * - `ERR_WEBHOOK_ABORTED`: the request body could not be read to the end: the `signal` aborted,
 *   `timeoutMs` passed, or the client went away (status 408);
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
 * - `ERR_WEBHOOK_SECRET_INVALID`: the secret is empty or not a string or bytes, or a list of more
 *   than 16;
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
  | "ERR_WEBHOOK_HEADER_REPEATED"
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
 * wired wrong (a parsed or already-read body, a bad secret, an argument of the wrong kind: fix the
 * code), `"authentication"` when the request itself is refused (missing, repeated or bad headers,
 * out of the time window, a signature mismatch, a replay, a body that is not JSON, too large or not
 * read to the end), `"unavailable"` when the replay check could not answer (the sender should
 * retry). The HTTP status to answer is {@link WebhookVerificationError.status}: within
 * `"authentication"`, a body too large is 413 and a body not read to the end 408, not 401.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookVerificationErrorKind } from "messaging-events/webhooks";
 *
 * const fixTheCode = (kind: WebhookVerificationErrorKind) => kind === "configuration";
 * ```
 */
export type WebhookVerificationErrorKind = "configuration" | "authentication" | "unavailable";

/**
 * The HTTP status that answers each code: 500 for a configuration error, 503 when the replay check
 * could not answer, 413 for a body too large, 408 for a body not read to the end, 401 otherwise.
 */
function statusOf(code: string, kind: WebhookVerificationErrorKind): 401 | 408 | 413 | 500 | 503 {
  if (kind === "configuration") return 500;
  if (kind === "unavailable") return 503;
  return code === "ERR_WEBHOOK_BODY_TOO_LARGE" ? 413 : code === "ERR_WEBHOOK_ABORTED" ? 408 : 401;
}

/**
 * The one error of webhook verification: the `verify…` functions reject with it and the
 * `safeVerify…` ones return it. Its {@link WebhookVerificationError.code} is stable, its
 * {@link WebhookVerificationError.kind} says who must act, and its
 * {@link WebhookVerificationError.status} is the HTTP status to answer. Its message says what to
 * fix and never contains the secret, the expected signature or the received one; an unexpected
 * failure is kept as its `cause`.
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
 *   if (error instanceof WebhookVerificationError) console.log(error.code, error.kind, error.status); // "ERR_WEBHOOK_HEADER_MISSING" "authentication" 401
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  /** Why the webhook was not accepted. */
  declare readonly code: WebhookVerificationErrorCode;
  /**
   * Who must act: `"configuration"` (the receiving code is wired wrong: fix it), `"authentication"`
   * (the request is refused) or `"unavailable"` (the replay check could not answer: the sender
   * retries). For the HTTP status, read {@link WebhookVerificationError.status}.
   */
  declare readonly kind: WebhookVerificationErrorKind;
  /**
   * The HTTP status to answer: 401 for a refused request, except 413 for
   * `ERR_WEBHOOK_BODY_TOO_LARGE` and 408 for `ERR_WEBHOOK_ABORTED`; 500 for a configuration error;
   * 503 for `ERR_WEBHOOK_REPLAY_CHECK_FAILED`.
   */
  declare readonly status: 401 | 408 | 413 | 500 | 503;

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
    this.status = statusOf(code, this.kind);
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
