import type { EventValidationIssue } from "../events/EventValidationError.js";
import type { JsonApiError } from "../jsonapi/toJsonApiErrors.js";

/**
 * Why `createEvent` failed, as a stable code:
 *
 * - `ERR_EVENTS_API`: the service answered with a 4xx other than 429 ({@link EventsApiError});
 * - `ERR_EVENTS_RETRIES_EXHAUSTED`: network errors, time-outs, 5xx or 429 until the retries ran out
 *   ({@link EventsRetryError});
 * - `ERR_EVENTS_BAD_RESPONSE`: a 2xx whose body is not the created event resource
 *   ({@link EventsResponseError});
 * - `ERR_EVENTS_IDEMPOTENCY_ECHO`: the resource does not echo the idempotency key that was sent
 *   ({@link IdempotencyEchoError}).
 *
 * Invalid content is an `EventValidationError`, thrown before anything is sent; a caller's
 * `AbortSignal` rejects with its own reason.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventsClientErrorCode } from "messaging-events/client";
 *
 * const transient: EventsClientErrorCode[] = ["ERR_EVENTS_RETRIES_EXHAUSTED"];
 * ```
 */
export type EventsClientErrorCode =
  | "ERR_EVENTS_API"
  | "ERR_EVENTS_RETRIES_EXHAUSTED"
  | "ERR_EVENTS_BAD_RESPONSE"
  | "ERR_EVENTS_IDEMPOTENCY_ECHO";

/**
 * The base of the client's errors: a stable `code` and the idempotency key of the request, so that
 * a failed create can be retried later with the same key, without a duplicate.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsClientError } from "messaging-events/client";
 *
 * function describe(error: unknown): string {
 *   return error instanceof EventsClientError ? `${error.code} (key ${error.idempotencyKey})` : String(error);
 * }
 * ```
 */
export class EventsClientError extends Error {
  /** Why the create failed. */
  readonly code: EventsClientErrorCode;
  /** The idempotency key every attempt carried; reuse it to retry without creating a duplicate. */
  readonly idempotencyKey: string;

  /**
   * Creates the error. The client creates these; applications normally only read them.
   *
   * @param code - Why the create failed.
   * @param message - What happened, for a person.
   * @param idempotencyKey - The key every attempt carried.
   * @param options - `cause`, the underlying error if any.
   */
  constructor(
    code: EventsClientErrorCode,
    message: string,
    idempotencyKey: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "EventsClientError";
    this.code = code;
    this.idempotencyKey = idempotencyKey;
  }
}

/**
 * The service refused the request with a 4xx status (other than 429, which is retried): `status`
 * and the JSON:API `errors` it sent, if any. Never retried.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsApiError } from "messaging-events/client";
 *
 * function details(error: unknown): string[] {
 *   return error instanceof EventsApiError ? error.errors.map((item) => item.detail ?? item.title ?? "") : [];
 * }
 * ```
 */
export class EventsApiError extends EventsClientError {
  /** The HTTP status. */
  readonly status: number;
  /** The JSON:API error objects of the response body (empty if it had none). */
  readonly errors: readonly Partial<JsonApiError>[];

  /**
   * Creates the error.
   *
   * @param status - The HTTP status.
   * @param errors - The JSON:API error objects of the response.
   * @param idempotencyKey - The key of the request.
   */
  constructor(status: number, errors: readonly Partial<JsonApiError>[], idempotencyKey: string) {
    const first = errors[0];
    const summary = first ? `: ${first.detail ?? first.title ?? first.code ?? "error"}` : "";
    super("ERR_EVENTS_API", `the service answered ${status}${summary}`, idempotencyKey);
    this.name = "EventsApiError";
    this.status = status;
    this.errors = errors;
  }
}

/**
 * Every attempt failed with a network error, a time-out, a 5xx or a 429, and the retries ran out
 * (or the service asked to wait longer than `maxDelayMs`). All attempts carried the same key.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsRetryError } from "messaging-events/client";
 *
 * function attemptsOf(error: unknown): number {
 *   return error instanceof EventsRetryError ? error.attempts : 0;
 * }
 * ```
 */
export class EventsRetryError extends EventsClientError {
  /** How many requests were sent. */
  readonly attempts: number;
  /** The status of the last response, if the last attempt got one. */
  readonly lastStatus: number | undefined;

  /**
   * Creates the error.
   *
   * @param message - What happened.
   * @param attempts - How many requests were sent.
   * @param lastStatus - The last status, if any.
   * @param idempotencyKey - The key every attempt carried.
   * @param cause - The last network error, if any.
   */
  constructor(
    message: string,
    attempts: number,
    lastStatus: number | undefined,
    idempotencyKey: string,
    cause?: unknown,
  ) {
    super("ERR_EVENTS_RETRIES_EXHAUSTED", message, idempotencyKey, { cause });
    this.name = "EventsRetryError";
    this.attempts = attempts;
    this.lastStatus = lastStatus;
  }
}

/**
 * The service answered 2xx, but the body is not the created event resource (not JSON, or not a
 * resource of type `events` with a valid `id` and attributes): `issues` says what is wrong.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsResponseError } from "messaging-events/client";
 *
 * function where(error: unknown): string[] {
 *   return error instanceof EventsResponseError ? error.issues.map((issue) => issue.pointer) : [];
 * }
 * ```
 */
export class EventsResponseError extends EventsClientError {
  /** The HTTP status. */
  readonly status: number;
  /** What is wrong with the body, with pointers into it. */
  readonly issues: readonly EventValidationIssue[];

  /**
   * Creates the error.
   *
   * @param status - The HTTP status.
   * @param message - What is wrong.
   * @param issues - The problems found in the body.
   * @param idempotencyKey - The key of the request.
   */
  constructor(
    status: number,
    message: string,
    issues: readonly EventValidationIssue[],
    idempotencyKey: string,
  ) {
    super("ERR_EVENTS_BAD_RESPONSE", message, idempotencyKey);
    this.name = "EventsResponseError";
    this.status = status;
    this.issues = issues;
  }
}

/**
 * The created resource does not carry the idempotency key that was sent in
 * `data.meta["idempotency-key"]` (spec 4.1, rule 2), so it cannot be known to be this request's
 * event. The event may have been created: retry with the same key to find out without a duplicate.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { IdempotencyEchoError } from "messaging-events/client";
 *
 * function echoed(error: unknown): unknown {
 *   return error instanceof IdempotencyEchoError ? error.echoed : undefined;
 * }
 * ```
 */
export class IdempotencyEchoError extends EventsClientError {
  /** What the response carried instead (`undefined` when nothing). */
  readonly echoed: unknown;

  /**
   * Creates the error.
   *
   * @param echoed - What the response carried in `meta["idempotency-key"]`.
   * @param idempotencyKey - The key that was sent.
   */
  constructor(echoed: unknown, idempotencyKey: string) {
    super(
      "ERR_EVENTS_IDEMPOTENCY_ECHO",
      echoed === undefined
        ? 'the created resource does not echo the idempotency key in meta["idempotency-key"]'
        : 'the created resource echoes a different idempotency key in meta["idempotency-key"]',
      idempotencyKey,
    );
    this.name = "IdempotencyEchoError";
    this.echoed = echoed;
  }
}
