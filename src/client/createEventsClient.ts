import type { EventContent, EventContentInput } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import {
  createIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  isHeaderSafeIdempotencyKey,
} from "../idempotency/idempotencyKey.js";
import type { JsonObject } from "../internal/jsonValue.js";
import { createEventDocument } from "../jsonapi/createEventDocument.js";
import type { EventResource } from "../jsonapi/eventDocumentSchema.js";
import { JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import { safeParseEventResource } from "../jsonapi/parseEventDocument.js";
import type { JsonApiError } from "../jsonapi/toJsonApiErrors.js";
import { EventsApiError, EventsResponseError, EventsRetryError, IdempotencyEchoError } from "./errors.js";

/**
 * How the client retries: `retries` attempts after the first, waiting between them an exponential
 * backoff from `minDelayMs`, doubled each time, capped at `maxDelayMs`, with jitter (a random
 * point in the upper half), or what the service's `Retry-After` asks.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { RetryOptions } from "messaging-events/client";
 *
 * const retry: RetryOptions = { retries: 5, minDelayMs: 200, maxDelayMs: 5_000 };
 * ```
 */
export interface RetryOptions {
  /**
   * Attempts after the first one.
   * @default 3
   */
  readonly retries?: number;
  /**
   * The first backoff, in milliseconds.
   * @default 100
   */
  readonly minDelayMs?: number;
  /**
   * The longest wait between attempts; a `Retry-After` longer than this ends the retries.
   * @default 5000
   */
  readonly maxDelayMs?: number;
}

/**
 * The options of {@link createEventsClient}.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventsClientOptions } from "messaging-events/client";
 *
 * const options: EventsClientOptions = { baseUrl: "https://api.example.com/v1", credentials: "Bearer my-token", timeoutMs: 5_000 };
 * ```
 */
export interface EventsClientOptions {
  /** The service's base URL; events are created at `{baseUrl}/events`. */
  readonly baseUrl: string | URL;
  /** The value of the `Authorization` header, sent as it is (the scheme is not shown by the spec). */
  readonly credentials: string;
  /**
   * The fetch function to use.
   * @default globalThis.fetch
   */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** How to retry network errors, time-outs, 5xx and 429. */
  readonly retry?: RetryOptions;
  /**
   * How long one attempt may take, response body included, in milliseconds.
   * @default 10000
   */
  readonly timeoutMs?: number;
}

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
  /** Further attributes (ruling 11). */
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
export type CreatedEvent<T extends EventType = EventType> = EventResource & {
  readonly attributes: { readonly type: T; readonly content: EventContent<T> };
};

/**
 * A client for the events endpoint: see {@link createEventsClient}.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient, type EventsClient } from "messaging-events/client";
 *
 * const client: EventsClient = createEventsClient({ baseUrl: "https://api.example.com", credentials: "Bearer my-token" });
 * ```
 */
export interface EventsClient {
  /**
   * Creates an event with `POST {baseUrl}/events` and resolves to the created resource.
   *
   * @param event - The type, content and optional relationships and attributes.
   * @param options - `idempotencyKey` (a new UUID v4 when absent) and an `AbortSignal`.
   */
  createEvent<T extends EventType>(
    event: NewEvent<T>,
    options?: { readonly idempotencyKey?: string; readonly signal?: AbortSignal },
  ): Promise<CreatedEvent<T>>;
}

/** The longest delay setTimeout honours. */
const MAX_TIMER_MS = 2_147_483_647;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 section 10.2.3). */
function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  // An HTTP date always ends in GMT; anything else ("1.5", "-1") is ignored, and the backoff applies.
  if (!/GMT\s*$/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text === "" ? undefined : JSON.parse(text);
}

/** The JSON:API `errors` of a body, kept only where they are objects. */
function apiErrors(body: unknown): Partial<JsonApiError>[] {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors.filter((item) => typeof item === "object" && item !== null) : [];
}

/**
 * Creates a client for `POST {baseUrl}/events` that validates, sends, retries without ever creating
 * a duplicate, and returns the typed event resource:
 *
 * - the content is validated first: invalid content throws `EventValidationError` and never reaches
 *   the network;
 * - the JSON:API document and headers are built (`Authorization`, `Content-Type` and `Accept`
 *   `application/vnd.api+json`, `Service-Idempotency-Key`), and a key is always sent, in the header
 *   and in `data.meta` (a new UUID v4 unless you pass one);
 * - network errors, time-outs (`timeoutMs` per attempt), 5xx and 429 are retried with exponential
 *   backoff and jitter, honouring `Retry-After`, always with the same key and the same document;
 *   other 4xx are never retried; your `AbortSignal` stops everything;
 * - the response is validated (an event resource with an `id`, echoing the key).
 *
 * Uses only the global `fetch` (or yours), so it runs in browsers, Node, Bun, Deno and Workers.
 * Throws a `TypeError` at once for an invalid `baseUrl`, `credentials` or retry setting.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient } from "messaging-events/client";
 *
 * const client = createEventsClient({
 *   baseUrl: "https://api.example.com",
 *   credentials: "Bearer token",
 *   // A stand-in for the service, so that this example runs anywhere.
 *   fetch: async (_url, init) => {
 *     const sent = JSON.parse(String(init.body));
 *     const data = { ...sent.data, id: "01JD8X5QK3M2" };
 *     return new Response(JSON.stringify({ data }), { status: 201, headers: { "content-type": "application/vnd.api+json" } });
 *   },
 * });
 * const event = await client.createEvent({ type: "s.message.text", content: { body: "Hello!" } });
 * console.log(event.id, event.attributes.content.body); // 01JD8X5QK3M2 Hello!
 * ```
 */
export function createEventsClient(options: EventsClientOptions): EventsClient {
  const { credentials, timeoutMs = 10_000 } = options ?? {};
  const { retries = 3, minDelayMs = 100, maxDelayMs = 5_000 } = options?.retry ?? {};
  let endpoint: URL;
  try {
    endpoint = new URL(String(options?.baseUrl));
  } catch {
    throw new TypeError(
      `createEventsClient: baseUrl must be an absolute URL, not ${JSON.stringify(String(options?.baseUrl))}`,
    );
  }
  // {baseUrl}/events, keeping the base's query (a tenant parameter, say); a fragment means nothing to a server.
  endpoint.pathname = endpoint.pathname.replace(/\/?$/, "/events");
  endpoint.hash = "";
  const url = endpoint.href;
  if (typeof credentials !== "string") {
    throw new TypeError("createEventsClient: credentials must be the Authorization header value, a string");
  }
  // A value fetch cannot send (a line break, a character beyond Latin-1) fails here, once, not on every attempt.
  new Headers({ Authorization: credentials });
  if (!Number.isInteger(retries) || retries < 0)
    throw new TypeError("createEventsClient: retries must be a whole number >= 0");
  for (const [name, value] of Object.entries({ minDelayMs, maxDelayMs, timeoutMs })) {
    if (typeof value !== "number" || !(value >= 0))
      throw new TypeError(`createEventsClient: ${name} must be a number >= 0`);
  }
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));

  return {
    async createEvent<T extends EventType>(
      event: NewEvent<T>,
      {
        idempotencyKey = createIdempotencyKey(),
        signal,
      }: { idempotencyKey?: string; signal?: AbortSignal } = {},
    ): Promise<CreatedEvent<T>> {
      // Validates the content and the key before anything is sent.
      if (!isHeaderSafeIdempotencyKey(idempotencyKey)) {
        throw new TypeError(
          "createEvent: idempotencyKey must be a non-blank string of at most 255 printable Latin-1 characters, without spaces at either end (it travels in a header)",
        );
      }
      const document = createEventDocument({ ...event, idempotencyKey });
      const body = JSON.stringify(document);
      const headers = {
        Authorization: credentials,
        "Content-Type": JSON_API_MEDIA_TYPE,
        Accept: JSON_API_MEDIA_TYPE,
        [IDEMPOTENCY_KEY_HEADER]: idempotencyKey,
      };
      let lastStatus: number | undefined;
      let lastError: unknown;
      for (let attempt = 0; attempt <= retries; attempt++) {
        signal?.throwIfAborted();
        const controller = new AbortController();
        const abort = () => controller.abort(signal?.reason);
        signal?.addEventListener("abort", abort, { once: true });
        // setTimeout cannot wait longer than 2^31 - 1 ms: a longer (or infinite) time-out means none.
        const timer =
          timeoutMs <= MAX_TIMER_MS
            ? setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), timeoutMs)
            : undefined;
        let retryAfter: number | undefined;
        try {
          const response = await send(url, { method: "POST", headers, body, signal: controller.signal });
          lastStatus = response.status;
          if (response.status === 429 || response.status >= 500) {
            retryAfter = retryAfterMs(response.headers.get("retry-after"), Date.now());
            lastError = undefined;
            await response.body?.cancel().catch(() => undefined);
          } else {
            let parsed: unknown;
            try {
              parsed = await readJson(response);
            } catch (cause) {
              // A time-out or a dropped connection while reading the body is retried like any other.
              if (!(cause instanceof SyntaxError)) throw cause;
              if (response.ok)
                throw new EventsResponseError(
                  response.status,
                  "the response body is not JSON",
                  [],
                  idempotencyKey,
                );
              parsed = undefined;
            }
            if (!response.ok) throw new EventsApiError(response.status, apiErrors(parsed), idempotencyKey);
            return checkCreated(parsed, response.status, event.type, idempotencyKey);
          }
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          if (
            error instanceof EventsApiError ||
            error instanceof EventsResponseError ||
            error instanceof IdempotencyEchoError
          ) {
            throw error;
          }
          // A network error or a time-out: the request may or may not have arrived; the key makes a retry safe.
          lastError = error;
          lastStatus = undefined;
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener("abort", abort);
        }
        if (attempt === retries) break;
        const backoff = Math.min(maxDelayMs, minDelayMs * 2 ** attempt);
        const delay = retryAfter ?? backoff / 2 + (Math.random() * backoff) / 2;
        if (delay > maxDelayMs) {
          throw new EventsRetryError(
            `the service asked to retry after ${Math.ceil(delay / 1000)} s, longer than maxDelayMs (${maxDelayMs} ms)`,
            attempt + 1,
            lastStatus,
            idempotencyKey,
          );
        }
        await sleep(delay, signal);
      }
      const reason =
        lastStatus === undefined
          ? `the last attempt failed: ${lastError instanceof Error ? lastError.message : String(lastError)}`
          : `the last answer was ${lastStatus}`;
      throw new EventsRetryError(
        `gave up after ${retries + 1} attempts; ${reason}`,
        retries + 1,
        lastStatus,
        idempotencyKey,
        lastError,
      );
    },
  };
}

function checkCreated<T extends EventType>(
  body: unknown,
  status: number,
  type: T,
  key: string,
): CreatedEvent<T> {
  const result = safeParseEventResource(body);
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
  if (resource.attributes.type !== type) {
    throw new EventsResponseError(
      status,
      `the response is an event of type ${resource.attributes.type}, not ${type}`,
      [],
      key,
    );
  }
  return resource as CreatedEvent<T>;
}
