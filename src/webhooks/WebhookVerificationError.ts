import type { EventValidationIssue } from "../events/EventValidationError.js";

/**
 * Why a webhook was not processed, as a stable code. Each code has one HTTP status to answer, the
 * same whichever way the webhook came in (the receiver answers it; the `verify…` functions give it
 * as {@link WebhookVerificationError.status}):
 *
 * | Code | Status | Kind |
 * |---|---|---|
 * | `ERR_WEBHOOK_HEADER_MISSING`: no `service-timestamp` or no `service-signature` header | 401 | authentication |
 * | `ERR_WEBHOOK_HEADER_REPEATED`: a signed header (or `service-webhook-id`) came more than once | 401 | authentication |
 * | `ERR_WEBHOOK_TIMESTAMP_MALFORMED`: `service-timestamp` is not an RFC 3339 date-time | 401 | authentication |
 * | `ERR_WEBHOOK_TIMESTAMP_TOO_OLD` / `ERR_WEBHOOK_TIMESTAMP_IN_FUTURE`: outside the tolerance | 401 | authentication |
 * | `ERR_WEBHOOK_SIGNATURE_MALFORMED`: not one of the four accepted spellings of a 64-byte MAC | 401 | authentication |
 * | `ERR_WEBHOOK_SIGNATURE_MISMATCH`: no secret gives this signature (altered, or the wrong secret) | 401 | authentication |
 * | `ERR_WEBHOOK_BODY_NOT_JSON`: authentic, but not UTF-8 JSON | 401 | authentication |
 * | `ERR_WEBHOOK_REPLAYED`: the same signed request (no delivery id) was already processed | 401 | authentication |
 * | `ERR_WEBHOOK_ID_INVALID`: `service-webhook-id` is not 1 to 256 visible ASCII characters | 401 | authentication |
 * | `ERR_WEBHOOK_BODY_TOO_LARGE`: the body is larger than `maxBodyBytes` | 413 | authentication |
 * | `ERR_WEBHOOK_ABORTED`: the body was not read to the end (time-out, `signal`, client gone) | 408 | authentication |
 * | `ERR_WEBHOOK_PAYLOAD_INVALID`: authentic, but not a payload the service describes (see `issues`) | 422 | invalid |
 * | `ERR_WEBHOOK_HANDLER_FAILED`: your handler threw (its error is the `cause`); the sender retries | 500 | handler |
 * | `ERR_WEBHOOK_IN_PROGRESS`: the same delivery is being handled right now; retry after `Retry-After` | 409 | unavailable |
 * | `ERR_WEBHOOK_STORE_UNAVAILABLE`: the replay store could not answer (its error is the `cause`) | 503 | unavailable |
 * | `ERR_WEBHOOK_BODY_PARSED`: the body was given as a parsed object instead of the raw bytes | 500 | configuration |
 * | `ERR_WEBHOOK_BODY_USED`: the request body had already been read, or is locked | 500 | configuration |
 * | `ERR_WEBHOOK_SECRET_INVALID`: the secret is empty, not a string or bytes, or a list of more than 16 | 500 | configuration |
 * | `ERR_WEBHOOK_INVALID_INPUT`: an argument of the wrong kind, or an unexpected failure (the `cause`) | 500 | configuration |
 *
 * A webhook that was processed (or had already been) is answered 204.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookVerificationErrorCode } from "messaging-events/webhooks";
 *
 * const retried: WebhookVerificationErrorCode[] = ["ERR_WEBHOOK_HANDLER_FAILED", "ERR_WEBHOOK_STORE_UNAVAILABLE"];
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
  | "ERR_WEBHOOK_REPLAYED"
  | "ERR_WEBHOOK_ID_INVALID"
  | "ERR_WEBHOOK_BODY_TOO_LARGE"
  | "ERR_WEBHOOK_ABORTED"
  | "ERR_WEBHOOK_PAYLOAD_INVALID"
  | "ERR_WEBHOOK_HANDLER_FAILED"
  | "ERR_WEBHOOK_IN_PROGRESS"
  | "ERR_WEBHOOK_STORE_UNAVAILABLE"
  | "ERR_WEBHOOK_BODY_PARSED"
  | "ERR_WEBHOOK_BODY_USED"
  | "ERR_WEBHOOK_SECRET_INVALID"
  | "ERR_WEBHOOK_INVALID_INPUT";

/**
 * Who must act on a {@link WebhookVerificationError}:
 *
 * - `"authentication"`: the request itself is refused (bad or missing headers, out of the time
 *   window, a signature mismatch, an exact replay, a body that is not JSON, too large or not read
 *   to the end): 401, 413 or 408;
 * - `"invalid"`: the request is authentic, but its payload is not one the service describes: 422;
 * - `"handler"`: your handler threw: 500, and the sender retries;
 * - `"unavailable"`: try again later: the same delivery is being handled (409) or the replay store
 *   could not answer (503), both with `Retry-After`;
 * - `"configuration"`: the receiving code is wired wrong (a parsed or already-read body, a bad
 *   secret, an argument of the wrong kind): 500, fix the code.
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
export type WebhookVerificationErrorKind =
  | "authentication"
  | "invalid"
  | "handler"
  | "unavailable"
  | "configuration";

/**
 * The HTTP status to answer for a {@link WebhookVerificationError}, or 204 for a webhook processed.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookStatus } from "messaging-events/webhooks";
 *
 * const retriedBySender = (status: WebhookStatus) => status >= 500 || status === 409 || status === 408;
 * ```
 */
export type WebhookStatus = 204 | 401 | 408 | 409 | 413 | 422 | 500 | 503;

/** The one table: every code (after `ERR_WEBHOOK_`) and its status; the kind follows from both ({@link kindOf}). */
const STATUSES = {
  HEADER_MISSING: 401,
  HEADER_REPEATED: 401,
  TIMESTAMP_MALFORMED: 401,
  TIMESTAMP_TOO_OLD: 401,
  TIMESTAMP_IN_FUTURE: 401,
  SIGNATURE_MALFORMED: 401,
  SIGNATURE_MISMATCH: 401,
  BODY_NOT_JSON: 401,
  REPLAYED: 401,
  ID_INVALID: 401,
  BODY_TOO_LARGE: 413,
  ABORTED: 408,
  PAYLOAD_INVALID: 422,
  HANDLER_FAILED: 500,
  IN_PROGRESS: 409,
  STORE_UNAVAILABLE: 503,
  BODY_PARSED: 500,
  BODY_USED: 500,
  SECRET_INVALID: 500,
  INVALID_INPUT: 500,
} as const satisfies Record<Reason, Exclude<WebhookStatus, 204>>;

/** Who must act, from the status: a 500 is the handler's when it threw, the wiring's otherwise. */
const kindOf = (code: string, status: number): WebhookVerificationErrorKind =>
  status < 414
    ? status === 409
      ? "unavailable"
      : "authentication"
    : status === 422
      ? "invalid"
      : status === 503
        ? "unavailable"
        : code.endsWith("HANDLER_FAILED")
          ? "handler"
          : "configuration";

/**
 * The one error of receiving webhooks: the `verify…` functions reject with it, the `safeVerify…`
 * ones return it, and the receiver answers its {@link WebhookVerificationError.status} and hands it
 * to `onError`. Its {@link WebhookVerificationError.code} is stable, its
 * {@link WebhookVerificationError.kind} says who must act, and its status comes from one table (see
 * {@link WebhookVerificationErrorCode}). Its message says what to fix and never contains the secret,
 * the expected signature or the received one; a wrapped failure is kept as its `cause`.
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
  /** Why the webhook was not processed. */
  declare readonly code: WebhookVerificationErrorCode;
  /**
   * Who must act: `"authentication"` (the request is refused), `"invalid"` (authentic, but not a
   * valid payload), `"handler"` (your handler threw), `"unavailable"` (retry later) or
   * `"configuration"` (the receiving code is wired wrong: fix it).
   */
  declare readonly kind: WebhookVerificationErrorKind;
  /**
   * The HTTP status to answer: 401 for a refused request, 413 for a body too large, 408 for a body
   * not read to the end, 422 for an invalid payload, 500 for a handler that threw or a
   * configuration error, 409 while the same delivery is handled, 503 when the store cannot answer.
   */
  declare readonly status: Exclude<WebhookStatus, 204>;
  /**
   * What is wrong with the payload, for `ERR_WEBHOOK_PAYLOAD_INVALID` (each with its path and JSON
   * pointer); empty for every other code.
   */
  declare readonly issues: readonly EventValidationIssue[];

  /**
   * Creates the error. The library creates these; applications normally only read them.
   *
   * @param code - Why the webhook was not processed.
   * @param message - What to fix; never the secret or a signature.
   * @param options - `cause`: the failure this error wraps, if any; `issues`: the payload's problems.
   */
  constructor(
    code: WebhookVerificationErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: readonly EventValidationIssue[] },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "WebhookVerificationError";
    this.code = code;
    this.status = STATUSES[code.slice(12) as Reason] ?? 500;
    this.kind = kindOf(code, this.status);
    this.issues = options?.issues ?? [];
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
