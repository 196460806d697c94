import type { MessagingEvent } from "../events/EventContent.js";
import type { JsonObject, JsonValue } from "../events/JsonValue.js";
import type { JsonApiOptions } from "../jsonapi/eventAttributeNames.js";
import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import type { EventsHandlerTelemetry } from "./EventsHandlerTelemetry.js";
import type { IdempotencyStore } from "./IdempotencyStore.js";

/**
 * What the handler passes to your `create` function: the validated event, the whole validated
 * document, who sent it, the idempotency key (if any) and a signal that aborts when the request lost
 * its claim on the key (its lease ran out and another request took over), `createTimeoutMs` passed,
 * or the handler is closing.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { CreateEventRequest, CreateEventResult } from "messaging-events/server";
 *
 * async function create({ event, principal, idempotencyKey }: CreateEventRequest): Promise<CreateEventResult> {
 *   console.log(principal, idempotencyKey, event.type);
 *   return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
 * }
 * ```
 */
export interface CreateEventRequest {
  /** The event type and its validated content. */
  readonly event: MessagingEvent;
  /**
   * The validated request document, further attributes and relationships included (typed with the
   * default attribute names; with other `attributeNames`, read the type and content from `event`).
   */
  readonly document: EventDocument;
  /** What `authorize` returned for the request. */
  readonly principal: string;
  /** The request's idempotency key, or `undefined` when it sent none (then nothing is de-duplicated). */
  readonly idempotencyKey: string | undefined;
  /** Aborts when this request no longer holds its key, `createTimeoutMs` has passed, or the handler is closing. */
  readonly signal: AbortSignal;
}

/**
 * What your `create` function returns: the new event's `id` (1 to 26 characters, not blank; a ULID
 * fits exactly), and optionally attributes to add to the resource (a creation time, say) and its
 * relationships (the request's are used when absent).
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { CreateEventResult } from "messaging-events/server";
 *
 * const result: CreateEventResult = {
 *   id: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
 *   attributes: { createdAt: "2026-01-01T00:00:00Z" },
 * };
 * ```
 */
export interface CreateEventResult {
  /** The event's id: 1 to 26 characters, not only white space. Anything else answers 500. */
  readonly id: string;
  /** Attributes added to those of the request (they win over the request's extra attributes). */
  readonly attributes?: Readonly<Record<string, JsonValue>>;
  /** The resource's relationships; the request's when absent. */
  readonly relationships?: Readonly<Record<string, JsonObject>>;
}

/**
 * The options of `createEventsHandler`.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { EventsHandlerOptions } from "messaging-events/server";
 *
 * const options: EventsHandlerOptions = {
 *   authorize: (request) => request.headers.get("authorization") === "Bearer demo" ? "demo-tenant" : null,
 *   create: async () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
 *   location: (id) => `https://api.example.com/events/${id}`,
 *   leaseMs: 10_000,
 * };
 * ```
 */
export interface EventsHandlerOptions extends JsonApiOptions {
  /**
   * Who sent the request: a principal id, or `null` to answer 401. Idempotency keys are scoped per
   * principal, so two tenants using the same key never see each other's responses.
   */
  readonly authorize: (request: Request) => string | null | Promise<string | null>;
  /** Stores the event: your code. A throw answers an opaque 500 and frees the key for a retry. */
  readonly create: (request: CreateEventRequest) => CreateEventResult | Promise<CreateEventResult>;
  /**
   * Where idempotency records live. Use a shared store (Redis) when several processes answer.
   * @default createMemoryIdempotencyStore() (closed with the handler)
   */
  readonly store?: IdempotencyStore;
  /**
   * The largest request body read, in bytes; a larger one answers 413 without being read further.
   * @default 1048576 (1 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * How long a completed response is kept for replay, in milliseconds.
   * @default 86400000 (24 hours)
   */
  readonly retentionMs?: number;
  /**
   * How long a claim on a key holds if its process dies, in milliseconds; it is extended while
   * `create` runs, so `create` may take longer. A retry waits a third of it (the 409's
   * `Retry-After`); the default lets the library's client, with its own defaults, take over the key
   * of a process that died (its third retry comes after the lease).
   * @default 10000
   */
  readonly leaseMs?: number;
  /**
   * The longest wait for one store call, in milliseconds; past it the request answers 503.
   * @default 2000
   */
  readonly storeTimeoutMs?: number;
  /**
   * The longest time for reading the request body, in milliseconds; a body not read to its end by
   * then (sent a byte at a time, or shorter than its `Content-Length`) answers 408.
   * @default 30000 (30 s)
   */
  readonly bodyTimeoutMs?: number;
  /**
   * The longest wait for `create`, in milliseconds: past it, `create`'s signal aborts, the key is
   * freed and the request answers 503 `ERR_CREATE_TIMEOUT` with `Retry-After`, so that a retry can
   * create the event. Make `create` stop when its signal aborts.
   * @default 10000 (10 s: the library's client gives up on an attempt after as long)
   */
  readonly createTimeoutMs?: number;
  /**
   * The scheme a 401 names in its `WWW-Authenticate` header (`Bearer realm="events"`, say).
   * @default "Bearer"
   */
  readonly authenticationScheme?: string;
  /**
   * Lets browser pages on other origins call the handler (CORS): preflight `OPTIONS` requests answer
   * 204, and answers to an allowed origin carry `Access-Control-Allow-Origin` and expose `Location`,
   * `Retry-After` and `Idempotent-Replayed`. `origins` is a list of origins (`"*"` for any) or a
   * function from the request's `Origin` to whether it is allowed; `allowCredentials` sends
   * `Access-Control-Allow-Credentials: true` (the origin is then echoed, never `*`); `maxAgeMs` is how
   * long a browser may keep a preflight answer (`Access-Control-Max-Age`, in whole seconds; 600000
   * when absent). Without it, no CORS header is ever sent.
   */
  readonly cors?: {
    /** The origins allowed (`"*"` for any), or a function from a request's `Origin` to whether it is. */
    readonly origins: readonly string[] | ((origin: string) => boolean);
    /**
     * Sends `Access-Control-Allow-Credentials: true` (the origin is then echoed, never `*`). Refused
     * with `origins: ["*"]`: list the origins, or pass a function that checks them.
     */
    readonly allowCredentials?: boolean;
    /** How long a browser may keep a preflight answer, in milliseconds (600000 when absent). */
    readonly maxAgeMs?: number;
  };
  /**
   * The path the handler answers (`POST` only); any other path answers 404.
   * @default "/events"
   */
  readonly path?: string;
  /** The URL of a created event, sent as `Location`. No `Location` header when absent. */
  readonly location?: (id: string) => string | URL;
  /**
   * Called when something failed on the server's side (see {@link EventsHandlerErrorContext} for
   * the stages): log it, count it, page someone. The answer does not depend on it: what it returns
   * or throws is ignored (a promise is not awaited), and the client still gets the opaque 500 or the
   * 503 it would have got.
   */
  readonly onError?: (error: unknown, context: EventsHandlerErrorContext) => unknown;
  /**
   * Traces every request: `createOpenTelemetry()` from `messaging-events/opentelemetry` records an
   * HTTP server span per request (continuing the caller's `traceparent`), with the event type, the
   * idempotency outcome and each store call as a child span. Without it nothing is traced and
   * nothing of OpenTelemetry is loaded. It never changes an answer.
   */
  readonly telemetry?: EventsHandlerTelemetry;
}

/**
 * Where a failure reported to `onError` happened:
 *
 * - `"authorize"`: `authorize` threw or rejected (answered 500);
 * - `"create"`: `create` threw, rejected, returned something that is not `{ id }`, or did not finish
 *   within `createTimeoutMs` (answered 500, or 503 for the time-out; the key is freed);
 * - `"store"`: the idempotency store failed or did not answer within `storeTimeoutMs` (answered 503,
 *   or, when freeing a key, the key stays claimed until its lease runs out);
 * - `"complete"`: the event **was created** (answered 201) but its record could not be stored: a
 *   retry of the same key will run `create` again. A Redis at `maxmemory` refusing writes is the
 *   usual cause: count these;
 * - `"body"`: the request's body was consumed before `createNodeListener` saw it (a body parser
 *   mounted in front: answered 500 `ERR_BODY_ALREADY_READ`);
 * - `"internal"`: anything else (answered 500).
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { EventsHandlerErrorStage } from "messaging-events/server";
 *
 * const paging: readonly EventsHandlerErrorStage[] = ["store", "complete"];
 * ```
 */
export type EventsHandlerErrorStage = "authorize" | "create" | "store" | "complete" | "body" | "internal";

/**
 * What `onError` learns besides the error: the stage, the request, who sent it and with which key
 * (when known by then), and the status the client was answered (`undefined` when the failure
 * happened after the answer was decided, freeing a key for instance).
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createEventsHandler, type EventsHandlerErrorContext } from "messaging-events/server";
 *
 * const handler = createEventsHandler({
 *   authorize: () => "demo-tenant",
 *   create: () => {
 *     throw new Error("database down");
 *   },
 *   onError: (error, context: EventsHandlerErrorContext) =>
 *     console.error(`${context.stage} failed (${context.status}) for ${context.principal}:`, error),
 * });
 * await handler.close();
 * ```
 */
export interface EventsHandlerErrorContext {
  /** Where it failed. */
  readonly stage: EventsHandlerErrorStage;
  /** The request being answered (its body already read). */
  readonly request: Request;
  /** What `authorize` returned, once it has. */
  readonly principal: string | undefined;
  /** The request's idempotency key, once read. */
  readonly idempotencyKey: string | undefined;
  /** The status answered, or `undefined` when the failure came after the answer was decided. */
  readonly status: number | undefined;
}

/**
 * A Fetch handler for `POST /events`, with an idempotent `close()` that waits a bounded time for the
 * requests under way and then closes the store it created (never one you passed in).
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createEventsHandler, type EventsHandler } from "messaging-events/server";
 *
 * const handler: EventsHandler = createEventsHandler({
 *   authorize: () => "demo-tenant",
 *   create: async () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
 * });
 * const response = await handler(new Request("http://localhost/events", { method: "GET" }));
 * console.log(response.status); // 405
 * await handler.close();
 * ```
 */
export interface EventsHandler {
  /** Answers one request. Never rejects: every failure is a JSON:API error response. */
  (request: Request): Promise<Response>;
  /**
   * Stops taking requests (503) and aborts the signal of every `create` under way; waits for the
   * requests under way at most `timeoutMs` (default 10000), then answers those still running 503
   * (freeing their keys) and closes the store it owns. Never hangs. Idempotent: a second call returns
   * the first call's promise.
   */
  close(options?: { readonly timeoutMs?: number }): Promise<void>;
}
