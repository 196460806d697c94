import { describeFound, describeValue, withArticle } from "../internal/describe.js";
import { guardTelemetry } from "../internal/guardTelemetry.js";
import { type InternalRetryOptions, normalizeRetryOptions } from "../internal/normalizeRetryOptions.js";
import { ownOptions } from "../internal/ownOptions.js";
import {
  type DefaultEventAttributeNames,
  type EventAttributeNames,
  type JsonApiOptions,
  resolveAttributeNames,
} from "../jsonapi/eventAttributeNames.js";
import type { EventsClientRetry, EventsClientTelemetry } from "./EventsClientTelemetry.js";
import type { RetryOptions } from "./RetryOptions.js";
import type { AuthorizationOption } from "./readAuthorization.js";
import { isSendableHeaderValue, SENDABLE_HEADER_VALUE } from "./sendableHeaderValue.js";

/**
 * The options of `createEventsClient`.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventsClientOptions } from "messaging-events/client";
 *
 * const options: EventsClientOptions = { baseUrl: "https://api.example.com/v1", authorization: "Bearer my-token", timeoutMs: 5_000 };
 *
 * // A token that refreshes: the function is called before every attempt, retries included.
 * declare function currentToken(): Promise<string>;
 * const refreshing: EventsClientOptions = {
 *   baseUrl: "https://api.example.com/v1",
 *   authorization: async () => `Bearer ${await currentToken()}`,
 * };
 * ```
 */
export interface EventsClientOptions<N extends EventAttributeNames = DefaultEventAttributeNames>
  extends JsonApiOptions<N> {
  /**
   * The service's base URL, `http:` or `https:`; events are created at `{baseUrl}/events` (its query
   * is kept, its fragment dropped). A URL with a user name or password (`https://user:pass@host`)
   * is refused: put credentials in `authorization`.
   */
  readonly baseUrl: string | URL;
  /**
   * The value of the `Authorization` header, sent as it is (the scheme is not shown by the spec):
   * a string, or a function giving it (sync or async), called before every attempt, retries
   * included, so that a token that refreshes is read afresh. Printable characters only (no control
   * character, no line break, no space at either end), so that it reaches the service exactly as
   * given: a string that is not is refused when the client is created (`TypeError`); a function
   * that throws or gives anything else fails the create with `EventsAuthorizationError`
   * (`ERR_EVENTS_AUTHORIZATION`). Every value it had never appears in an error, even when the
   * service echoes it.
   */
  readonly authorization: string | (() => string | Promise<string>);
  /**
   * The fetch function to use. The client always passes `redirect: "manual"`.
   * @default globalThis.fetch
   */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * How to retry network errors, time-outs, 5xx, 429, and 409 with `Retry-After`: the waits before
   * each retry, their jitter, and the longest `Retry-After` to honour (see {@link RetryOptions});
   * each missing member takes its default.
   * @default { delaysMs: [100, 200, 400], jitter: 0.5, maxRetryAfterMs: 5000 } (3 retries, waiting 50 to 150 ms, 100 to 300 ms, then 200 to 600 ms)
   */
  readonly retry?: RetryOptions;
  /**
   * How long one attempt may take, response body included, in milliseconds; `Infinity` for no limit.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * The most bytes of a response body the client reads; past it, reading stops and the create fails
   * with `EventsResponseTooLargeError` (`ERR_EVENTS_RESPONSE_TOO_LARGE`), never retried.
   * @default 1048576 (1 MiB)
   */
  readonly maxResponseBytes?: number;
  /**
   * Called before each retry, with the attempt that failed (its number, its status or error code)
   * and how long the client waits now: log it, count it. Never handed the authorization or the
   * idempotency key. What it returns or throws is ignored (a promise is not awaited).
   */
  readonly onRetry?: (retry: EventsClientRetry) => unknown;
  /**
   * Traces every `createEvent` and its attempts: `createOpenTelemetry()` from
   * `messaging-events/opentelemetry` records them as OpenTelemetry spans and sends the trace context
   * (`traceparent`) with each attempt. Without it nothing is traced and nothing of OpenTelemetry is
   * loaded.
   */
  readonly telemetry?: EventsClientTelemetry;
}

/** The client's options once checked, with every default applied. */
export interface InternalClientOptions {
  /** `{baseUrl}/events`, without user info or fragment. */
  readonly endpoint: string;
  /** A string checked here, or the user's function, called per attempt. */
  readonly authorization: AuthorizationOption;
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** The retry settings, every default applied. */
  readonly retry: InternalRetryOptions<number>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** The names of the event type and content attributes, checked. */
  readonly attributeNames: EventAttributeNames;
  readonly onRetry: ((retry: EventsClientRetry) => unknown) | undefined;
  /** The instrumentation, guarded so that it never throws; `undefined` for none. */
  readonly telemetry: EventsClientTelemetry | undefined;
}

const prefix = "createEventsClient:";

/** The client's retry defaults: 3 retries, 0.7 s of waiting on average, a `Retry-After` up to 5 s. */
const CLIENT_RETRY_DEFAULTS: InternalRetryOptions<number> = {
  delaysMs: [100, 200, 400],
  jitter: 0.5,
  maxRetryAfterMs: 5_000,
};

function endpointOf(baseUrl: unknown): string {
  let text: string;
  if (typeof baseUrl === "string") text = baseUrl;
  else if (baseUrl instanceof URL) text = baseUrl.href;
  else throw new TypeError(`${prefix} baseUrl must be a string or a URL, not ${describeFound(baseUrl)}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text may hold a password in a form the URL parser rejects: echo it only without any "@",
    // and never past a "?", where a query (a token) would begin.
    const query = text.indexOf("?");
    const shown = text.includes("@")
      ? "(not shown: it contains an @)"
      : describeFound(query < 0 ? text : `${text.slice(0, query)}?…`);
    throw new TypeError(`${prefix} baseUrl must be an absolute http: or https: URL, not ${shown}`);
  }
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
    // Nor its query or fragment, which may carry a token.
    const query = url.search === "" ? "" : "?…";
    url.search = "";
    url.hash = "";
    throw new TypeError(
      `${prefix} baseUrl must not carry a user name or password (put them in authorization): ${describeFound(url.href + query)}`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(
      `${prefix} baseUrl must be an http: or https: URL, not ${describeFound(url.protocol)}`,
    );
  }
  // {baseUrl}/events, keeping the base's query (a tenant parameter, say); a fragment means nothing to a server.
  url.pathname = url.pathname.replace(/\/?$/, "/events");
  url.hash = "";
  return url.href;
}

function numberOption(name: string, value: unknown, fallback: number, wholeNumber = false): number {
  if (value === undefined) return fallback;
  const valid =
    typeof value === "number" &&
    value >= 0 &&
    (wholeNumber ? Number.isSafeInteger(value) : !Number.isNaN(value));
  if (!valid) {
    throw new TypeError(
      `${prefix} ${name} must be ${wholeNumber ? "a whole number" : "a number"} >= 0, not ${describeFound(value)}`,
    );
  }
  return value;
}

/**
 * Checks the options of `createEventsClient` and applies every default, once: the `{baseUrl}/events`
 * endpoint (absolute, `http:` or `https:`, no user info), the authorization (a header value sent
 * as it is, or a function, whose results are checked per attempt), the fetch function, the retry
 * settings, the time-out and the response cap. Throws a `TypeError` naming the first wrong
 * option; no message ever shows the authorization value, or the user name and password of a URL.
 * Internal to the client: not exported from the package.
 */
export function normalizeClientOptions(
  options: EventsClientOptions<EventAttributeNames>,
): InternalClientOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${prefix} options must be an object, not ${describeFound(options)}`);
  }
  options = ownOptions(options);
  const endpoint = endpointOf(options.baseUrl);
  const authorization: unknown = options.authorization;
  if (typeof authorization !== "string" && typeof authorization !== "function") {
    throw new TypeError(
      `${prefix} authorization must be the Authorization header value, a string, or a function giving it, not ${withArticle(describeValue(authorization))}`,
    );
  }
  if (typeof authorization === "string" && !isSendableHeaderValue(authorization)) {
    throw new TypeError(
      `${prefix} authorization must be a header value sent as it is: ${SENDABLE_HEADER_VALUE} (the value is not shown)`,
    );
  }
  const fetchOption: unknown = options.fetch;
  if (fetchOption !== undefined && typeof fetchOption !== "function") {
    throw new TypeError(`${prefix} fetch must be a function, not ${describeFound(fetchOption)}`);
  }
  const onRetry: unknown = options.onRetry;
  if (onRetry !== undefined && typeof onRetry !== "function") {
    throw new TypeError(`${prefix} onRetry must be a function, not ${describeFound(onRetry)}`);
  }
  return {
    endpoint,
    authorization: authorization as AuthorizationOption,
    // Looked up at each call, so that a fetch installed later (a polyfill, a test double) is used.
    fetch:
      (fetchOption as InternalClientOptions["fetch"] | undefined) ??
      ((input: string, init: RequestInit) => fetch(input, init)),
    retry: normalizeRetryOptions(options.retry, CLIENT_RETRY_DEFAULTS, prefix),
    timeoutMs: numberOption("timeoutMs", options.timeoutMs, 10_000),
    maxResponseBytes: numberOption("maxResponseBytes", options.maxResponseBytes, 1_048_576, true),
    attributeNames: resolveAttributeNames(options),
    onRetry: onRetry as InternalClientOptions["onRetry"],
    telemetry: guardTelemetry(options.telemetry, prefix, "startCreateEvent"),
  };
}
