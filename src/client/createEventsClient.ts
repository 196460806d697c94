import type { EventContentInput } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import type { JsonObject } from "../events/JsonValue.js";
import {
  createIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  IdempotencyKeyError,
  isValidIdempotencyKey,
} from "../idempotency/idempotencyKey.js";
import { plannedRetryDelay } from "../internal/backoff.js";
import { quote } from "../internal/describe.js";
import { readBytesWithLimit } from "../internal/readBytesWithLimit.js";
import { parseRetryAfter } from "../internal/retryAfter.js";
import { MAX_TIMER_MS, sleep } from "../internal/sleep.js";
import { createEventDocument } from "../jsonapi/createEventDocument.js";
import type { DefaultEventAttributeNames, EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import type { EventAttributes, EventResource } from "../jsonapi/eventDocumentSchema.js";
import { JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import { safeParseEventResource } from "../jsonapi/parseEventDocument.js";
import { EventsRedirectError } from "./EventsRedirectError.js";
import { EventsResponseTooLargeError } from "./EventsResponseTooLargeError.js";
import {
  EventsApiError,
  EventsClientError,
  EventsResponseError,
  EventsRetryError,
  IdempotencyEchoError,
} from "./errors.js";
import {
  type EventsClientOptions,
  type InternalClientOptions,
  normalizeClientOptions,
} from "./normalizeClientOptions.js";
import { readAuthorization } from "./readAuthorization.js";
import { redactJson, redactSecrets, secretsOf } from "./redactSecrets.js";

/**
 * What to create: the event type and content, and optionally relationships and further attributes.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { NewEvent } from "messaging-events/client";
 *
 * const event: NewEvent<"s.message.text"> = { type: "s.message.text", content: { body: "Hello!" } };
 * ```
 */
export interface NewEvent<T extends EventType = EventType> {
  /** The event type. */
  readonly type: T;
  /** The content, validated before anything is sent. */
  readonly content: EventContentInput<T>;
  /** JSON:API relationship objects. */
  readonly relationships?: Readonly<Record<string, JsonObject>>;
  /** Further attributes, kept as they are. */
  readonly attributes?: Readonly<Record<string, unknown>>;
}

/**
 * A created event: the resource the service returned, typed by the event type.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { CreatedEvent } from "messaging-events/client";
 *
 * function summary(event: CreatedEvent<"s.message.text">): string {
 *   return `${event.id}: ${event.attributes.content.body}`;
 * }
 * ```
 */
export type CreatedEvent<
  T extends EventType = EventType,
  N extends EventAttributeNames = DefaultEventAttributeNames,
> = EventResource<N> & { readonly attributes: EventAttributes<N, T> };

/**
 * What `createEvent` resolves to: the created event, and whether the service had created it
 * before.
 *
 * - `data` is the event resource the service returned, typed by the event type;
 * - `replayed` is `true` when the service answered with `Idempotent-Replayed: true`: it already
 *   had an event for this idempotency key and sent back the stored answer instead of creating
 *   another. That happens when an earlier call with the same key created it, and also when an
 *   earlier attempt of this very call did but its answer was lost (a dropped connection, a
 *   time-out). `false` for a new event, and when the header cannot be read: in a browser calling
 *   another origin, the service must list it in `Access-Control-Expose-Headers`.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { CreatedEventResult } from "messaging-events/client";
 *
 * function summary({ data, replayed }: CreatedEventResult<"s.message.text">): string {
 *   return `${data.id}${replayed ? " (created before)" : ""}: ${data.attributes.content.body}`;
 * }
 * ```
 */
export interface CreatedEventResult<
  T extends EventType = EventType,
  N extends EventAttributeNames = DefaultEventAttributeNames,
> {
  /** The created event resource. */
  readonly data: CreatedEvent<T, N>;
  /** Whether the service sent back an event it had already created for this key. */
  readonly replayed: boolean;
}

/**
 * A client for the events endpoint: see {@link createEventsClient}.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient, type EventsClient } from "messaging-events/client";
 *
 * const client: EventsClient = createEventsClient({ baseUrl: "https://api.example.com", authorization: "Bearer my-token" });
 * ```
 */
export interface EventsClient<N extends EventAttributeNames = DefaultEventAttributeNames> {
  /**
   * Creates an event with `POST {baseUrl}/events` and resolves to the created resource (`data`)
   * and whether the service had created it before (`replayed`).
   *
   * @param event - The type, content and optional relationships and attributes.
   * @param options - `idempotencyKey` (a new UUID v4 when absent) and an `AbortSignal`.
   */
  createEvent<T extends EventType>(
    event: NewEvent<T>,
    options?: { readonly idempotencyKey?: string; readonly signal?: AbortSignal },
  ): Promise<CreatedEventResult<T, N>>;
}

/**
 * Creates a client for `POST {baseUrl}/events` that validates, sends, retries without ever creating
 * a duplicate, and returns the typed event resource:
 *
 * - the content is validated first: invalid content throws `EventValidationError` and never reaches
 *   the network;
 * - the JSON:API document and headers are built (`Authorization` from `authorization`, read again
 *   before every attempt when it is a function, `Content-Type` and `Accept`
 *   `application/vnd.api+json`, `Service-Idempotency-Key`), and a key is always sent, in the header
 *   and in `data.meta` (a new UUID v4 unless you pass one);
 * - network errors, time-outs (`timeoutMs` per attempt), 5xx, 429, and 409 with `Retry-After` (the
 *   same key still in flight at the service) are retried after the waits of `retry.delaysMs` (by
 *   default 100, 200 and 400 ms, each ±50%), honouring `Retry-After` up to `retry.maxRetryAfterMs`,
 *   always with the same key and the same bytes; other 4xx are never retried; your `AbortSignal`
 *   stops everything;
 * - redirects are never followed (`redirect: "manual"`): a 3xx is an `EventsRedirectError`, so the
 *   document, the key and the authorization go only to `baseUrl`;
 * - at most `maxResponseBytes` of a response are read, chunk by chunk;
 * - the response is validated (an event resource with an `id`, echoing the key), and resolves to
 *   `{ data, replayed }` ({@link CreatedEventResult}).
 *
 * No error message, property or `cause` carries an `authorization` value, even when the service
 * echoes it (escaped or not).
 * Uses only the global `fetch` (or yours), so it runs in browsers, Node, Bun, Deno and Workers.
 * Throws a `TypeError` at once for an invalid option (see `EventsClientOptions`).
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient } from "messaging-events/client";
 *
 * const client = createEventsClient({
 *   baseUrl: "https://api.example.com",
 *   authorization: "Bearer token",
 *   // A stand-in for the service, so that this example runs anywhere.
 *   fetch: async (_url, init) => {
 *     const sent = JSON.parse(String(init.body));
 *     const data = { ...sent.data, id: "01JD8X5QK3M2" };
 *     return new Response(JSON.stringify({ data }), { status: 201, headers: { "content-type": "application/vnd.api+json" } });
 *   },
 * });
 * const { data: event, replayed } = await client.createEvent({ type: "s.message.text", content: { body: "Hello!" } });
 * console.log(event.id, event.attributes.content.body, replayed); // 01JD8X5QK3M2 Hello! false
 * ```
 */
export function createEventsClient<N extends EventAttributeNames = DefaultEventAttributeNames>(
  options: EventsClientOptions<N>,
): EventsClient<N> {
  const settings = normalizeClientOptions(options);
  const { authorization } = settings;
  // A fixed value's secrets are worked out once; a function's, for each value it gives.
  const fixedSecrets = typeof authorization === "string" ? secretsOf([authorization]) : [];
  return {
    async createEvent<T extends EventType>(
      event: NewEvent<T>,
      {
        idempotencyKey = createIdempotencyKey(),
        signal,
      }: { idempotencyKey?: string; signal?: AbortSignal } = {},
    ): Promise<CreatedEventResult<T, N>> {
      // The key and the content are checked before anything is sent; a valid key (visible ASCII, no
      // comma) travels unchanged in a header.
      if (!isValidIdempotencyKey(idempotencyKey)) throw new IdempotencyKeyError("createEvent");
      const document = createEventDocument({ ...event, idempotencyKey }, settings);
      const attempt = createAttempt(settings, JSON.stringify(document), idempotencyKey, event.type);
      const { retry } = settings;
      // Every value the function gave during this call stays blotted out of its errors.
      const given = new Set<string>();
      let secrets = fixedSecrets;
      let last: Retry = { status: undefined, error: undefined, retryAfterMs: undefined };
      for (let count = 0; ; count++) {
        signal?.throwIfAborted();
        const value = await readAuthorization(authorization, count, idempotencyKey, signal);
        if (!given.has(value) && typeof authorization !== "string") {
          given.add(value);
          secrets = secretsOf([...given]);
        }
        const outcome = await attempt(value, secrets, signal);
        if (!isRetry(outcome)) return outcome as unknown as CreatedEventResult<T, N>;
        last = outcome;
        const planned = plannedRetryDelay(retry, count);
        if (planned === undefined) break;
        const { retryAfterMs } = outcome;
        if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) {
          throw new EventsRetryError(
            `the service asked to retry after ${Math.ceil(retryAfterMs / 1000)} s, longer than retry.maxRetryAfterMs (${retry.maxRetryAfterMs} ms)`,
            count + 1,
            last.status,
            idempotencyKey,
          );
        }
        // What the service asks, when it says, replaces the planned wait (it is not spread).
        await sleep(retryAfterMs ?? planned, signal);
      }
      const attempts = retry.delaysMs.length + 1;
      const reason =
        last.status === undefined
          ? `the last attempt failed: ${quote(redactSecrets(errorText(last.error), secrets))}`
          : `the last answer was ${last.status}`;
      throw new EventsRetryError(
        `gave up after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}; ${reason}`,
        attempts,
        last.status,
        idempotencyKey,
        last.error,
      );
    },
  };
}

/** An attempt that may be retried: the status it got, or the network error or time-out it ended with. */
interface Retry {
  readonly status: number | undefined;
  readonly error: unknown;
  readonly retryAfterMs: number | undefined;
}

const retryMarker = Symbol("retry");
const isRetry = (value: unknown): value is Retry =>
  typeof value === "object" && value !== null && retryMarker in value;

const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === "string" ? error : "an unknown failure";

/** Whether the service should be asked again: 5xx, 429, and 409 with Retry-After (the key still in flight). */
const isRetryable = (response: Response): boolean =>
  response.status === 429 ||
  response.status >= 500 ||
  (response.status === 409 && response.headers.has("retry-after"));

const isRedirect = (response: Response): boolean =>
  response.type === "opaqueredirect" ||
  (response.status >= 300 && response.status < 400) ||
  // A custom fetch that followed one in spite of redirect: "manual".
  response.redirected === true;

/**
 * Where a redirect pointed, absolute, without user info or secrets; browsers hide it. The secrets are
 * blotted out both before the URL is parsed (which rewrites a path: `\` to `/`, `..` removed) and
 * after (which percent-encodes and lowercases the host), however the service escaped them.
 */
function locationOf(response: Response, endpoint: string, secrets: readonly string[]): string | undefined {
  const value = response.redirected === true ? response.url : response.headers.get("location");
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(redactSecrets(value, secrets), endpoint);
  } catch {
    return undefined;
  }
  url.username = "";
  url.password = "";
  return redactSecrets(url.href, secrets);
}

/** Whether the answer is a replay: `Idempotent-Replayed: true`. */
const isReplayed = (response: Response): boolean =>
  response.headers.get("idempotent-replayed")?.trim().toLowerCase() === "true";

/**
 * One request, with its own time-out and the `Authorization` value of this attempt: the created
 * event, a retry, or a thrown client error. `secrets` are blotted out of anything the service
 * sends back.
 */
function createAttempt<T extends EventType>(
  settings: InternalClientOptions,
  body: string,
  key: string,
  type: T,
): (
  authorization: string,
  secrets: readonly string[],
  signal: AbortSignal | undefined,
) => Promise<CreatedEventResult<T> | Retry> {
  const { endpoint, timeoutMs, maxResponseBytes, attributeNames: names } = settings;
  return async (authorization, secrets, signal) => {
    const headers = {
      Authorization: authorization,
      "Content-Type": JSON_API_MEDIA_TYPE,
      Accept: JSON_API_MEDIA_TYPE,
      [IDEMPOTENCY_KEY_HEADER]: key,
    };
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", abort, { once: true });
    // setTimeout cannot wait longer than 2^31 - 1 ms: a longer (or infinite) time-out means none.
    const timer =
      timeoutMs <= MAX_TIMER_MS
        ? setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), timeoutMs)
        : undefined;
    try {
      const response = await settings.fetch(endpoint, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: controller.signal,
      });
      const { status } = response;
      if (isRedirect(response)) {
        await response.body?.cancel().catch(() => undefined);
        throw new EventsRedirectError(status, locationOf(response, endpoint, secrets), key);
      }
      if (isRetryable(response)) {
        await response.body?.cancel().catch(() => undefined);
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now());
        return { [retryMarker]: true, status, error: undefined, retryAfterMs };
      }
      const declared = response.headers.get("content-length");
      if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxResponseBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new EventsResponseTooLargeError(status, maxResponseBytes, key);
      }
      const read = await readBytesWithLimit(response.body, maxResponseBytes);
      if (!read.ok) throw new EventsResponseTooLargeError(status, maxResponseBytes, key);
      const text = new TextDecoder().decode(read.bytes);
      if (!response.ok) throw new EventsApiError(status, errorsOf(text, secrets), key);
      return { data: created(names, text, secrets, status, type, key), replayed: isReplayed(response) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof EventsClientError) throw error;
      // A network error or a time-out, while sending or while reading the body: the request may or
      // may not have arrived; the key makes a retry safe.
      return { [retryMarker]: true, status: undefined, error, retryAfterMs: undefined };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  };
}

/**
 * The `errors` member of a body, if it is JSON with one, with the authorization values blotted
 * out of every string in it. The body is parsed first: a service may escape a value it echoes
 * (`\/`, `\u0041`), and only the decoded strings show it.
 */
function errorsOf(text: string, secrets: readonly string[]): unknown {
  let errors: unknown;
  try {
    errors = (JSON.parse(text) as { errors?: unknown } | null)?.errors;
  } catch {
    return undefined;
  }
  return redactJson(errors, secrets).value;
}

/**
 * The created event of a 2xx body; when the body is not one, the error is built from the parsed
 * body with the authorization values blotted out of every string and member name, so that a
 * service echoing them, escaped or not, cannot put them into the error.
 */
function created<T extends EventType>(
  names: EventAttributeNames,
  text: string,
  secrets: readonly string[],
  status: number,
  type: T,
  key: string,
): CreatedEvent<T> {
  const parse = (): unknown => (text === "" ? undefined : JSON.parse(text));
  let parsed: unknown;
  try {
    parsed = parse();
  } catch {
    throw new EventsResponseError(status, "the response body is not JSON", [], key);
  }
  try {
    return checkCreated(parsed, status, type, key, names);
  } catch (error) {
    // The body is parsed again: the resource that failed the checks may be shared with the error.
    const clean = redactJson(parse(), secrets);
    if (!clean.changed) throw error;
    checkCreated(clean.value, status, type, key, names);
    throw new EventsResponseError(
      status,
      "the response is not the created event resource (details withheld: it contains the authorization value)",
      [],
      key,
    );
  }
}

function checkCreated<T extends EventType>(
  body: unknown,
  status: number,
  type: T,
  key: string,
  names: EventAttributeNames,
): CreatedEvent<T> {
  const result = safeParseEventResource(body, { attributeNames: names });
  if (!result.success) {
    throw new EventsResponseError(
      status,
      `the response is not an event resource: ${result.error.message}`,
      result.error.issues,
      key,
    );
  }
  const resource = result.data.data;
  const echoed = (resource.meta as Record<string, unknown> | undefined)?.[IDEMPOTENCY_KEY_META];
  if (echoed !== key) throw new IdempotencyEchoError(echoed, key);
  const sentType = resource.attributes[names.eventType];
  if (sentType !== type) {
    throw new EventsResponseError(
      status,
      `the response is an event of type ${typeof sentType === "string" ? quote(sentType) : "(none)"}, not ${type}`,
      [],
      key,
    );
  }
  return resource as CreatedEvent<T>;
}
