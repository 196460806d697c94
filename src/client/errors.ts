import type { EventValidationIssue } from "../events/EventValidationError.js";
import { describeFound, quote } from "../internal/describe.js";
import { boundedApiErrors, firstApiError, MAX_API_ERROR_STRING } from "./boundedApiErrors.js";
import type { EventsApiErrorObject } from "./EventsApiErrorObject.js";
import { keptString } from "./keptString.js";

/**
 * Why `createEvent` failed, as a stable code:
 *
 * - `ERR_EVENTS_API`: the service answered with a 4xx other than 429, or a 409 without `Retry-After`
 *   ({@link EventsApiError}; the service's own code is its `serviceCode`);
 * - `ERR_EVENTS_AUTHORIZATION`: the `authorization` function threw, or returned something that is
 *   not a header value that can be sent as it is (`EventsAuthorizationError`);
 * - `ERR_EVENTS_RETRIES_EXHAUSTED`: network errors, time-outs, 5xx, 429 or 409 with `Retry-After`
 *   until the retries ran out ({@link EventsRetryError});
 * - `ERR_EVENTS_BAD_RESPONSE`: a 2xx whose body is not the created event resource
 *   ({@link EventsResponseError});
 * - `ERR_EVENTS_IDEMPOTENCY_ECHO`: the resource does not echo the idempotency key that was sent
 *   ({@link IdempotencyEchoError});
 * - `ERR_EVENTS_REDIRECT`: the service answered with a redirect, which the client never follows
 *   ({@link EventsRedirectError});
 * - `ERR_EVENTS_RESPONSE_TOO_LARGE`: the response body is longer than `maxResponseBytes`
 *   ({@link EventsResponseTooLargeError}).
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
  | "ERR_EVENTS_AUTHORIZATION"
  | "ERR_EVENTS_RETRIES_EXHAUSTED"
  | "ERR_EVENTS_BAD_RESPONSE"
  | "ERR_EVENTS_IDEMPOTENCY_ECHO"
  | "ERR_EVENTS_REDIRECT"
  | "ERR_EVENTS_RESPONSE_TOO_LARGE";

const brand = Symbol.for("messaging-events.EventsClientError");

/**
 * The base of the client's errors: a stable `code` and the idempotency key of the request, so that
 * a failed create can be retried later with the same key, without a duplicate. No message,
 * property or `cause` of a client error carries the `authorization` value, even when the service
 * echoes it.
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

  /** @internal Marks instances so {@link isEventsClientError} recognises them across realms and copies of the library. */
  get [brand](): true {
    return true;
  }
}

/**
 * Tells whether a value is one of the client's errors ({@link EventsClientError} or a subclass),
 * also when it comes from another realm (an iframe, a worker) or another copy of this library,
 * where `instanceof` fails. Returns `false`, never throws, for anything else (proxies whose traps
 * throw and revoked proxies included).
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient, isEventsClientError } from "messaging-events/client";
 *
 * const client = createEventsClient({
 *   baseUrl: "https://api.example.com",
 *   authorization: "Bearer token",
 *   fetch: async () => new Response(null, { status: 404 }),
 * });
 * try {
 *   await client.createEvent({ type: "s.message.text", content: { body: "Hi" } });
 * } catch (error) {
 *   if (isEventsClientError(error)) console.log(error.code, error.idempotencyKey); // ERR_EVENTS_API …
 * }
 * ```
 */
export function isEventsClientError(value: unknown): value is EventsClientError {
  try {
    return (
      value instanceof EventsClientError ||
      (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true)
    );
  } catch {
    return false;
  }
}

/** How many characters of a service's code a message shows. */
const MAX_CODE_SHOWN = 100;
/** A service's code shown bare in a message when it is a plain token, quoted otherwise. */
const plainCode = /^[\w.:-]{1,100}$/;

/**
 * The service refused the request with a 4xx status (other than 429, and 409 with `Retry-After`,
 * which are retried). Never retried. The error says what the service said:
 *
 * - `serviceCode` and `detail` are the first error object's `code` and `detail`
 *   (`"ERR_IDEMPOTENCY_KEY_REUSED"`, say); `code` stays `ERR_EVENTS_API`, so that a service's code
 *   can never pass for one of the library's;
 * - `errors` keeps the first 100 error objects, each bounded as {@link EventsApiErrorObject} says:
 *   every string member escaped and cut to 1,000 characters;
 * - the message names the status and the service's code, and quotes the first error's `detail` (or
 *   `title`), cut to 1,000 characters and escaped.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsApiError } from "messaging-events/client";
 *
 * function hint(error: unknown): string | undefined {
 *   if (!(error instanceof EventsApiError)) return undefined;
 *   if (error.serviceCode === "ERR_IDEMPOTENCY_KEY_REUSED") return "use a new key for a new event";
 *   return error.detail;
 * }
 * ```
 */
export class EventsApiError extends EventsClientError {
  /** The HTTP status. */
  readonly status: number;
  /**
   * The service's own code for the problem: the first error object's `code` (escaped, at most
   * 1,000 characters), or `undefined` when it gave none.
   */
  readonly serviceCode: string | undefined;
  /**
   * What went wrong, for a person: the first error object's `detail` (escaped, at most 1,000
   * characters), or `undefined` when it gave none.
   */
  readonly detail: string | undefined;
  /** The JSON:API error objects of the response body, bounded (empty if it had none). */
  readonly errors: readonly EventsApiErrorObject[];

  /**
   * Creates the error.
   *
   * @param status - The HTTP status.
   * @param errors - The `errors` member of the response body, as parsed; only what
   *   {@link EventsApiErrorObject} describes is kept.
   * @param idempotencyKey - The key of the request.
   */
  constructor(status: number, errors: unknown, idempotencyKey: string) {
    const kept = boundedApiErrors(errors);
    const first = firstApiError(errors);
    const code = first?.code;
    const named = code === undefined ? "" : ` (${plainCode.test(code) ? code : quote(code, MAX_CODE_SHOWN)})`;
    const said = first?.detail ?? first?.title;
    const summary = said === undefined ? "" : `: ${quote(said, MAX_API_ERROR_STRING)}`;
    super("ERR_EVENTS_API", `the service answered ${status}${named}${summary}`, idempotencyKey);
    this.name = "EventsApiError";
    this.status = status;
    this.serviceCode = kept[0]?.code;
    this.detail = kept[0]?.detail;
    this.errors = kept;
  }
}

/**
 * Every attempt failed with a network error, a time-out, a 5xx, a 429 or a 409 with `Retry-After`,
 * and the retries ran out (or the service asked to wait longer than `retry.maxRetryAfterMs`). All
 * attempts carried the same key and the same bytes. `cause` is the last network error, if the last
 * attempt ended with one.
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
    super(
      "ERR_EVENTS_RETRIES_EXHAUSTED",
      message,
      idempotencyKey,
      cause === undefined ? undefined : { cause },
    );
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
 * `data.meta["idempotency-key"]`, as the service must, so it cannot be known to be this request's
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
  /**
   * What the response carried instead: `undefined` when nothing; a string (control characters,
   * line separators and bidirectional controls escaped as `\n` or `\u001b`, then cut to 1,000
   * characters), a number, boolean or `null` as it was; for an object or an array, `undefined` too
   * (the message names its kind).
   */
  readonly echoed: string | number | boolean | null | undefined;

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
        : `the created resource echoes ${describeFound(echoed)} in meta["idempotency-key"], not the key that was sent`,
      idempotencyKey,
    );
    this.name = "IdempotencyEchoError";
    this.echoed =
      typeof echoed === "string"
        ? keptString(echoed, MAX_API_ERROR_STRING)
        : typeof echoed === "number" || typeof echoed === "boolean" || echoed === null
          ? echoed
          : undefined;
  }
}
