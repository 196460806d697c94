import type { EventType } from "../events/eventTypes.js";
import {
  createIdempotencyKey,
  IdempotencyKeyError,
  isValidIdempotencyKey,
} from "../idempotency/idempotencyKey.js";
import { plannedRetryDelay } from "../internal/backoff.js";
import { callHook } from "../internal/callHook.js";
import { quote } from "../internal/describe.js";
import { errorTypeOf } from "../internal/errorType.js";
import { sleep } from "../internal/sleep.js";
import { urlWithoutQuery } from "../internal/urlWithoutQuery.js";
import { createEventDocument } from "../jsonapi/createEventDocument.js";
import type { DefaultEventAttributeNames, EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import type { CreatedEventResult } from "./CreatedEventResult.js";
import { createAttempt } from "./createAttempt.js";
import type { EventsClient } from "./EventsClient.js";
import type { EventsClientRetry, EventsClientTelemetry } from "./EventsClientTelemetry.js";
import { EventsRetryError } from "./errors.js";
import type { NewEvent } from "./NewEvent.js";
import { type EventsClientOptions, normalizeClientOptions } from "./normalizeClientOptions.js";
import { isRetry, type Retry } from "./Retry.js";
import { readAuthorization } from "./readAuthorization.js";
import { redactSecrets, secretsOf } from "./redactSecrets.js";

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
  const { onRetry, telemetry } = settings;
  // What telemetry sees of the endpoint: never its query, which may carry a token.
  const tracedUrl = telemetry === undefined ? "" : (urlWithoutQuery(settings.endpoint) ?? "");
  /** The create itself; `trace` follows it when the client has telemetry. */
  const create = async <T extends EventType>(
    event: NewEvent<T>,
    idempotencyKey: string,
    signal: AbortSignal | undefined,
    trace: CreateTrace | undefined,
  ): Promise<CreatedEventResult<T, N>> => {
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
      const outcome = await attempt(value, secrets, signal, trace?.startAttempt({ attempt: count + 1 }));
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
      const delayMs = retryAfterMs ?? planned;
      if (onRetry !== undefined || trace !== undefined) {
        announce(trace, {
          attempt: count + 1,
          delayMs,
          status: outcome.status,
          errorType: outcome.status === undefined ? errorTypeOf(outcome.error) : undefined,
          retryAfterMs,
        });
      }
      await sleep(delayMs, signal);
    }
    const attempts = retry.delaysMs.length + 1;
    const reason =
      last.status === undefined
        ? `the last attempt failed: ${quote(redactSecrets(errorText(last.error), [...secrets, ...querySecrets(settings.endpoint)]))}${corsHint(last.error)}`
        : `the last answer was ${last.status}`;
    throw new EventsRetryError(
      `gave up after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}; ${reason}`,
      attempts,
      last.status,
      idempotencyKey,
      last.error,
    );
  };
  /** Tells the hook and the trace of a retry; what the hook throws or rejects with is dropped. */
  const announce = (trace: CreateTrace | undefined, retry: EventsClientRetry) => {
    trace?.retry(retry);
    callHook(onRetry, retry);
  };
  return {
    async createEvent<T extends EventType>(
      event: NewEvent<T>,
      {
        idempotencyKey = createIdempotencyKey(),
        signal,
      }: { idempotencyKey?: string; signal?: AbortSignal } = {},
    ): Promise<CreatedEventResult<T, N>> {
      if (telemetry === undefined) return create(event, idempotencyKey, signal, undefined);
      const trace = telemetry.startCreateEvent({ eventType: typeOf(event), url: tracedUrl });
      try {
        const result = await create(event, idempotencyKey, signal, trace);
        trace?.end({ replayed: result.replayed, errorType: undefined });
        return result;
      } catch (error) {
        trace?.end({ replayed: undefined, errorType: errorTypeOf(error) });
        throw error;
      }
    },
  };
}

/** The trace of one `createEvent`, as the client's telemetry gives it. */
type CreateTrace = ReturnType<EventsClientTelemetry["startCreateEvent"]>;

/** The event type, for the trace; what a caller passed that is not an event is validated later. */
const typeOf = (event: unknown): string => {
  try {
    const type = (event as { type?: unknown } | null)?.type;
    return typeof type === "string" ? type.slice(0, 100) : "";
  } catch {
    return "";
  }
};

/**
 * Browsers give one opaque error for every failed request, a refusal by CORS included (the page may
 * not learn more): their messages for it get a hint, so a missing CORS answer is not taken for an
 * outage. Node's message ("fetch failed") gets none.
 */
const corsHint = (error: unknown): string =>
  /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/.test(errorText(error))
    ? " (in a browser, a request the service did not allow by CORS fails this way too: the service must answer CORS for this page's origin)"
    : "";

/**
 * The endpoint's query, whole and by value, which may carry a token: a fetch error that quotes the
 * URL (node-fetch's do) shows it otherwise.
 */
const querySecrets = (endpoint: string): string[] => {
  try {
    const url = new URL(endpoint);
    const query = url.search.slice(1);
    // A short value ("1", "eu") is too common to blot out everywhere, as with authorization values.
    if (query === "") return [];
    const secrets = [query];
    url.searchParams.forEach((value) => {
      if (value.length >= 8) secrets.push(value);
    });
    return secrets;
  } catch {
    return [];
  }
};

const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === "string" ? error : "an unknown failure";
