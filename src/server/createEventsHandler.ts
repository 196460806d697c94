import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  isValidIdempotencyKey,
} from "../idempotency/idempotencyKey.js";
import { readIdempotencyKey } from "../idempotency/readIdempotencyKey.js";
import { quote } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { LeaseKeeper } from "../internal/leaseKeeper.js";
import { timeBoxed } from "../internal/timeBoxed.js";
import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import { acceptsJsonApi, isJsonApiMediaType, JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import { safeParseEventDocument } from "../jsonapi/parseEventDocument.js";
import { toJsonApiErrors } from "../jsonapi/toJsonApiErrors.js";
import type {
  CreateEventRequest,
  CreateEventResult,
  EventsHandler,
  EventsHandlerOptions,
} from "./EventsHandlerOptions.js";
import { errorResponse, singleError } from "./errorResponse.js";
import { eventOf } from "./eventOf.js";
import { fingerprintDocument } from "./fingerprintDocument.js";
import type { IdempotencyRecordRef, StoredResponse } from "./IdempotencyStore.js";
import { isIdempotencyStoreError } from "./IdempotencyStoreError.js";
import {
  HANDLER_DEFAULTS,
  type NormalizedCors,
  type NormalizedHandlerOptions,
  normalizeHandlerOptions,
} from "./normalizeHandlerOptions.js";
import { readBodyWithLimit } from "./readBodyWithLimit.js";

/** The header that marks a replayed response. */
const REPLAYED_HEADER = "idempotent-replayed";
/** Seconds a client waits before retrying an unavailable store or a create that timed out. */
const RETRY_AFTER_SECONDS = "1";
/** The most a 409 asks a client to wait: the library's client gives up on a longer `Retry-After`. */
const MAX_IN_FLIGHT_RETRY_AFTER_SECONDS = 5;
/** What a preflight allows: the method and the request headers the library's client sends. */
const CORS_ALLOW_METHODS = "POST";
const CORS_ALLOW_HEADERS = "content-type, accept, authorization, service-idempotency-key";
const CORS_EXPOSE_HEADERS = "location, retry-after, idempotent-replayed";

/**
 * Creates the server side of `POST /events` as a Fetch handler, `(Request) => Promise<Response>`,
 * for any runtime with the Fetch API (Node through `createNodeListener`, Bun, Deno, Workers, Hono,
 * route handlers). It authorizes, checks the media types, reads at most `maxBodyBytes`, validates
 * the JSON:API document and its content, and creates the event idempotently:
 *
 * - keys are scoped per principal (what `authorize` returns) and claimed atomically before `create`
 *   runs; a completed key answers the stored response byte for byte, with `Idempotent-Replayed: true`;
 * - the same key while the first request runs answers 409 with `Retry-After`; with a different
 *   document (compared by a SHA-256 of its canonical JSON), 422 `ERR_IDEMPOTENCY_KEY_REUSED`;
 * - a `create` that throws frees the key and answers an opaque 500; a request without a key is not
 *   de-duplicated;
 * - a claim is a lease, extended while `create` runs: if the process dies, the key is free again
 *   after `leaseMs`, and every later write of the old holder is refused by the store;
 * - a store that fails or does not answer within `storeTimeoutMs` answers 503 with `Retry-After`;
 * - deadlines bound every wait: a body not read within `bodyTimeoutMs` answers 408; a `create` that
 *   runs past `createTimeoutMs` has its signal aborted and its key freed, and answers 503 with
 *   `Retry-After`; `close()` waits at most its `timeoutMs`;
 * - with `cors`, browser pages on the allowed origins may call it (preflights answer 204).
 *
 * Every failure is a JSON:API error document with `status`, `code`, `title`, `detail` and, where it
 * applies, `source.pointer`. The handler never rejects.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createEventsHandler } from "messaging-events/server";
 *
 * const handler = createEventsHandler({
 *   authorize: (request) => (request.headers.get("authorization") === "Bearer demo" ? "demo-tenant" : null),
 *   create: async ({ event }) => {
 *     console.log("storing", event.type);
 *     return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
 *   },
 *   location: (id) => `https://api.example.com/events/${id}`,
 * });
 * const response = await handler(
 *   new Request("https://api.example.com/events", {
 *     method: "POST",
 *     headers: {
 *       authorization: "Bearer demo",
 *       "content-type": "application/vnd.api+json",
 *       "service-idempotency-key": "order-42",
 *     },
 *     body: JSON.stringify({ data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } }),
 *   }),
 * );
 * console.log(response.status, response.headers.get("location")); // 201 https://api.example.com/events/01ARZ3NDEKTSV4RRFFQ69G5FAV
 * await handler.close();
 * ```
 */
export function createEventsHandler(options: EventsHandlerOptions): EventsHandler {
  const settings = normalizeHandlerOptions(options);
  const closing = new AbortController();
  // Each create gets its own signal, aborted on close: no listener per request on a shared signal
  // (which Node reports as a leak past ten requests in flight).
  const shutdown: Shutdown = {
    signal: closing.signal,
    creates: new Set(),
    leases: new LeaseKeeper(settings.leaseMs, (ref) =>
      storeCall(settings, () => settings.store.extend(ref, settings.leaseMs)),
    ),
    deadlines: new Set(),
  };
  let closed: Promise<void> | undefined;
  // Requests under way, and what close() waits on once they are all answered (none start after it).
  let running = 0;
  let drained: (() => void) | undefined;

  const answer = async (request: Request): Promise<Response> => {
    running++;
    try {
      return await handle(request, settings, shutdown);
    } catch {
      return internalError();
    } finally {
      if (--running === 0) drained?.();
    }
  };
  const cors = settings.cors;
  const handler = (request: Request): Promise<Response> => {
    if (cors !== undefined) return withCors(cors, request, settings.path, answerOrRefuse);
    return answerOrRefuse(request);
  };
  const answerOrRefuse = (request: Request): Promise<Response> => {
    if (closing.signal.aborted) return Promise.resolve(shuttingDown());
    return answer(request);
  };
  /** Resolves when no request is under way, or after `ms`; `false` when requests were still running. */
  const drainedWithin = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (running === 0) return resolve(true);
      const timer = setTimeout(() => resolve(running === 0), ms);
      drained = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  return Object.assign(handler, {
    close(options?: { readonly timeoutMs?: number }): Promise<void> {
      closed ??= (async () => {
        const timeoutMs = closeTimeout(options);
        const reason = new Error("the events handler is closing");
        closing.abort(reason);
        for (const create of shutdown.creates) create.abort(reason);
        if (!(await drainedWithin(timeoutMs))) {
          // What is left answers 503 now: each create waiting past the bound frees its key (one
          // store call each, bounded by storeTimeoutMs); a request stuck elsewhere is not waited for.
          for (const deadline of shutdown.deadlines) deadline.expire("closed");
          await drainedWithin(settings.storeTimeoutMs);
        }
        drained = undefined;
        shutdown.leases.stop();
        if (settings.ownsStore) await settings.store.close();
      })();
      return closed;
    },
  });
}

/** The bound of `close()`: its `timeoutMs`, checked, or the default. */
function closeTimeout(options: { readonly timeoutMs?: number } | undefined): number {
  const timeoutMs = options?.timeoutMs;
  if (timeoutMs === undefined) return HANDLER_DEFAULTS.closeTimeoutMs;
  // A close that cannot be told how long to wait still closes: a bad value is not worth a hang or a throw.
  return typeof timeoutMs === "number" && timeoutMs >= 0
    ? Math.min(timeoutMs, MAX_TIMER_MS)
    : HANDLER_DEFAULTS.closeTimeoutMs;
}

const MAX_TIMER_MS = 2_147_483_647;

function shuttingDown(): Response {
  return singleError(503, "ERR_UNAVAILABLE", "the server is shutting down; retry later", {
    headers: { "retry-after": RETRY_AFTER_SECONDS },
  });
}

/**
 * CORS around the handler: a preflight from an allowed origin answers 204 with what may be sent;
 * every other answer to an allowed origin says so and exposes the headers a client reads. A request
 * from an origin not allowed (or without `Origin`) is answered as without `cors`.
 */
async function withCors(
  cors: NormalizedCors,
  request: Request,
  path: string,
  next: (request: Request) => Promise<Response>,
): Promise<Response> {
  const origin = request.headers.get("origin");
  const allowed = origin !== null && cors.allows(origin);
  if (
    allowed &&
    request.method === "OPTIONS" &&
    request.headers.has("access-control-request-method") &&
    new URL(request.url).pathname === path
  ) {
    const headers = corsHeaders(cors, origin);
    headers.set("access-control-allow-methods", CORS_ALLOW_METHODS);
    headers.set("access-control-allow-headers", CORS_ALLOW_HEADERS);
    headers.set("access-control-max-age", String(cors.maxAgeSeconds));
    return new Response(null, { status: 204, headers });
  }
  const response = await next(request);
  if (allowed) {
    corsHeaders(cors, origin).forEach((value, name) => {
      response.headers.set(name, value);
    });
    response.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
  } else if (!cors.anyOrigin || cors.credentials) {
    // The answer depends on Origin: a shared cache must not serve one origin's answer to another.
    response.headers.append("vary", "origin");
  }
  return response;
}

function corsHeaders(cors: NormalizedCors, origin: string): Headers {
  const headers = new Headers();
  if (cors.anyOrigin && !cors.credentials) {
    headers.set("access-control-allow-origin", "*");
  } else {
    headers.set("access-control-allow-origin", origin);
    headers.set("vary", "origin");
  }
  if (cors.credentials) headers.set("access-control-allow-credentials", "true");
  return headers;
}

/** What a closing handler stops: the signal, and every create under way that read its signal. */
interface Shutdown {
  readonly signal: AbortSignal;
  readonly creates: Set<CreateSignal>;
  /** Renews the lease of every create under way, with one timer. */
  readonly leases: LeaseKeeper<IdempotencyRecordRef>;
  /** The deadline of every create under way: a close past its bound expires them all. */
  readonly deadlines: Set<CreateDeadline>;
}

/**
 * The wait for one `create`: it ends when `create` settles, when `createTimeoutMs` passes, or when a
 * close runs out of time. Its timer is set only when `create` does not settle within a few
 * microtasks (most creates that do not wait on I/O never need one).
 */
class CreateDeadline {
  readonly #shutdown: Shutdown;
  #expire: ((why: "timeout" | "closed") => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(shutdown: Shutdown) {
    this.#shutdown = shutdown;
  }

  /** What `run` settles to, or why it was given up. */
  async race<T>(
    run: Promise<T>,
    timeoutMs: number,
  ): Promise<{ done: true; value: T } | { done: false; why: "timeout" | "closed" }> {
    let settled = false;
    const done = run.then((value) => {
      settled = true;
      return { done: true as const, value };
    });
    for (let tick = 0; tick < 6 && !settled; tick++) await null;
    if (settled) return await done;
    const expired = new Promise<{ done: false; why: "timeout" | "closed" }>((resolve) => {
      this.#expire = (why) => resolve({ done: false, why });
    });
    this.#timer = setTimeout(() => this.expire("timeout"), timeoutMs);
    this.#shutdown.deadlines.add(this);
    try {
      return await Promise.race([done, expired]);
    } finally {
      clearTimeout(this.#timer);
      this.#shutdown.deadlines.delete(this);
    }
  }

  expire(why: "timeout" | "closed"): void {
    this.#expire?.(why);
  }
}

/**
 * The signal of one create, aborted when the handler closes or the claim is lost. Its
 * `AbortController` is made only when `create` reads `signal` (most never do, and making one costs
 * as much as a good part of the request); only then does the handler need to find it on close, so
 * only then is it registered.
 */
class CreateSignal {
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;
  #done = false;

  constructor(private readonly shutdown: Shutdown) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (!this.#aborted && this.shutdown.signal.aborted) this.abort(this.shutdown.signal.reason);
      if (this.#aborted) this.#controller.abort(this.#reason);
      else if (!this.#done) this.shutdown.creates.add(this);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  done(): void {
    this.#done = true;
    if (this.#controller !== undefined) this.shutdown.creates.delete(this);
  }
}

/**
 * What `create` is given. A class, not an object literal with a getter: a literal with an accessor
 * is built on a slow path that costs more than the rest of the call, and `signal` must stay lazy.
 */
class CreateRequest implements CreateEventRequest {
  readonly #abort: CreateSignal;

  constructor(
    readonly event: CreateEventRequest["event"],
    readonly document: EventDocument,
    readonly principal: string,
    readonly idempotencyKey: string | undefined,
    abort: CreateSignal,
  ) {
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}

function internalError(): Response {
  return singleError(500, "ERR_INTERNAL", "the event could not be created; retry later");
}

function unavailable(): Response {
  return singleError(503, "ERR_UNAVAILABLE", "the idempotency store is unavailable; retry later", {
    headers: { "retry-after": RETRY_AFTER_SECONDS },
  });
}

/**
 * Runs one store call, but never waits longer than `storeTimeoutMs` for it; `onLate` sees what a
 * call that outlived its answer settles to.
 */
function storeCall<T>(
  settings: NormalizedHandlerOptions,
  call: () => Promise<T>,
  onLate?: (value: T) => void,
): Promise<T> {
  return timeBoxed(settings.storeTimeoutMs, call, onLate);
}

async function handle(request: Request, settings: NormalizedHandlerOptions, shutdown: Shutdown) {
  const url = new URL(request.url);
  if (url.pathname !== settings.path) {
    return singleError(404, "ERR_NOT_FOUND", `nothing is served at ${quote(url.pathname)}`);
  }
  if (request.method !== "POST") {
    return singleError(
      405,
      "ERR_METHOD_NOT_ALLOWED",
      `${quote(request.method)} is not allowed here; send POST`,
      { headers: { allow: "POST" } },
    );
  }
  const authorized = settings.authorize(request);
  const principal = isPromiseLike(authorized) ? await authorized : authorized;
  if (typeof principal !== "string" || principal === "") {
    return singleError(401, "ERR_UNAUTHORIZED", "the request is not authorized", {
      headers: { "www-authenticate": settings.authenticationScheme },
    });
  }
  const contentType = request.headers.get("content-type");
  if (!isJsonApiMediaType(contentType)) {
    return singleError(
      415,
      "ERR_UNSUPPORTED_MEDIA_TYPE",
      `the Content-Type must be ${JSON_API_MEDIA_TYPE}, with no parameters other than ext and profile, not ${
        contentType === null ? "absent" : quote(contentType)
      }`,
    );
  }
  const accept = request.headers.get("accept");
  if (!acceptsJsonApi(accept)) {
    return singleError(
      406,
      "ERR_NOT_ACCEPTABLE",
      `the Accept header must allow ${JSON_API_MEDIA_TYPE} without parameters other than ext and profile, not ${quote(String(accept))}`,
    );
  }
  const body = await readBodyWithLimit(request, settings.maxBodyBytes, settings.bodyTimeoutMs);
  if (!body.ok) {
    if (body.reason === "too-large") {
      return singleError(
        413,
        "ERR_BODY_TOO_LARGE",
        `the body must be at most ${settings.maxBodyBytes} bytes`,
      );
    }
    return body.reason === "timeout"
      ? singleError(
          408,
          "ERR_BODY_TIMEOUT",
          `the body was not received in full within ${settings.bodyTimeoutMs} ms; send it again, at once and as long as its Content-Length says`,
        )
      : singleError(400, "ERR_BODY_NOT_JSON", "the body could not be read");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body.bytes));
  } catch {
    return singleError(400, "ERR_BODY_NOT_JSON", "the body is not JSON text (UTF-8)");
  }
  const keyed = readKey(request, parsed);
  if (!keyed.ok) return keyed.response;
  const jsonApi = settings.jsonApi;
  const validated = safeParseEventDocument(parsed, jsonApi);
  if (!validated.success) {
    const { errors, meta } = toJsonApiErrors(validated.error, jsonApi);
    return errorResponse(422, errors, {}, meta);
  }
  const document = validated.data;
  const key = keyed.key;
  if (key === undefined) {
    const abort = new CreateSignal(shutdown);
    let created: Awaited<ReturnType<typeof runCreateWithin>>;
    try {
      created = await runCreateWithin(settings, shutdown, document, principal, undefined, abort);
    } finally {
      abort.done();
    }
    if (created.ok) return toResponse(created.response);
    return "why" in created ? createGivenUp(settings, created.why) : internalError();
  }

  const hashed = fingerprintDocument(parsed);
  const fingerprint = typeof hashed === "string" ? hashed : await hashed;
  const token = crypto.randomUUID();
  const ref: IdempotencyRecordRef = { scope: principal, key, token };
  let claim: Awaited<ReturnType<typeof settings.store.claim>>;
  try {
    claim = await storeCall(
      settings,
      () => settings.store.claim({ scope: principal, key, token, fingerprint, leaseMs: settings.leaseMs }),
      // Answered 503 already: a claim that lands now must not hold the key for a whole lease.
      (late) => {
        if (late.status === "claimed") settings.store.release(ref).catch(() => undefined);
      },
    );
  } catch (error) {
    // One principal out of room in the store is told so, apart from an outage that concerns everyone.
    return isIdempotencyStoreError(error) && error.code === "ERR_IDEMPOTENCY_QUOTA_EXCEEDED"
      ? singleError(
          429,
          "ERR_QUOTA_EXCEEDED",
          "this principal has too many requests in progress in the idempotency store; retry after the delay in Retry-After",
          { headers: { "retry-after": RETRY_AFTER_SECONDS } },
        )
      : unavailable();
  }
  switch (claim.status) {
    case "completed":
      return toResponse(claim.response, true);
    case "in-flight":
      return inFlight(settings);
    case "mismatch":
      return singleError(
        422,
        "ERR_IDEMPOTENCY_KEY_REUSED",
        "this idempotency key was already used with a different document; use a new key for a new event",
        { pointer: `/data/meta/${IDEMPOTENCY_KEY_META}` },
      );
  }

  // The claim is ours: keep the lease alive while create runs, and stop create if it is lost.
  const lost = new CreateSignal(shutdown);
  const release = shutdown.leases.keep(ref, () =>
    lost.abort(new Error("the claim on the idempotency key was lost")),
  );
  let created: Awaited<ReturnType<typeof runCreateWithin>>;
  try {
    created = await runCreateWithin(settings, shutdown, document, principal, key, lost);
  } finally {
    release();
    lost.done();
  }
  if (!created.ok) {
    // Freed with a compare-and-delete on this request's token: a holder that took over keeps the key.
    await storeCall(settings, () => settings.store.release(ref)).catch(() => undefined);
    return "why" in created ? createGivenUp(settings, created.why) : internalError();
  }
  let stored: boolean;
  try {
    stored = await storeCall(settings, () =>
      settings.store.complete(ref, created.response, settings.retentionMs),
    );
  } catch {
    // The event exists: answering it is right; the record may be missing for retries that come after.
    return toResponse(created.response);
  }
  // Another request took the key over after this one's lease ran out: its record is the one to serve.
  return stored ? toResponse(created.response) : inFlight(settings);
}

/**
 * A 409 for a key in flight. The store does not say how long the holder's lease has left, so the
 * wait is derived from `leaseMs`: a third of it (how often a live holder renews; a dead holder's key
 * is free at most three of these later), from 1 s up to the 5 s the library's client accepts.
 */
function inFlight(settings: NormalizedHandlerOptions): Response {
  const seconds = Math.min(
    MAX_IN_FLIGHT_RETRY_AFTER_SECONDS,
    Math.max(1, Math.ceil(settings.leaseMs / 3000)),
  );
  return singleError(
    409,
    "ERR_IDEMPOTENCY_KEY_IN_FLIGHT",
    "a request with this idempotency key is in progress; retry after the delay in Retry-After",
    { headers: { "retry-after": String(seconds) } },
  );
}

/** The answer when `create` was given up: it ran past `createTimeoutMs`, or the handler closed. */
function createGivenUp(settings: NormalizedHandlerOptions, why: "timeout" | "closed"): Response {
  return why === "closed"
    ? shuttingDown()
    : singleError(
        503,
        "ERR_CREATE_TIMEOUT",
        `the event was not created within ${settings.createTimeoutMs} ms; its idempotency key is free again: retry with the same key`,
        { headers: { "retry-after": RETRY_AFTER_SECONDS } },
      );
}

/**
 * Runs `create` within its deadline: past `createTimeoutMs` (or when a close runs out of time) its
 * signal aborts and the result it settles to later is dropped.
 */
async function runCreateWithin(
  settings: NormalizedHandlerOptions,
  shutdown: Shutdown,
  document: EventDocument,
  principal: string,
  idempotencyKey: string | undefined,
  abort: CreateSignal,
): Promise<
  { ok: true; response: StoredResponse } | { ok: false } | { ok: false; why: "timeout" | "closed" }
> {
  const raced = await new CreateDeadline(shutdown).race(
    runCreate(settings, document, principal, idempotencyKey, abort),
    settings.createTimeoutMs,
  );
  if (raced.done) return raced.value;
  abort.abort(
    new Error(
      raced.why === "timeout"
        ? `create did not finish within createTimeoutMs (${settings.createTimeoutMs} ms)`
        : "the events handler closed before create finished",
    ),
  );
  return { ok: false, why: raced.why };
}

function readKey(
  request: Request,
  parsed: unknown,
): { ok: true; key: string | undefined } | { ok: false; response: Response } {
  const result = readIdempotencyKey({ headers: request.headers, document: parsed });
  // A valid key has no comma, so a header sent twice and joined by Fetch ("k1, k2") is never one.
  if (result.success && isValidIdempotencyKey(result.data)) return { ok: true, key: result.data };
  if (result.error?.reason === "missing") return { ok: true, key: undefined };
  if (result.error?.reason === "mismatch") {
    return {
      ok: false,
      response: singleError(400, "ERR_IDEMPOTENCY_KEY_MISMATCH", result.error.message, {
        pointer: `/data/meta/${IDEMPOTENCY_KEY_META}`,
      }),
    };
  }
  const header = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (header !== null && !isValidIdempotencyKey(header)) {
    return {
      ok: false,
      response: singleError(
        400,
        "ERR_IDEMPOTENCY_KEY_INVALID",
        `the ${IDEMPOTENCY_KEY_HEADER} header is repeated or invalid: send it once, with 1 to 255 visible ASCII characters other than the comma`,
      ),
    };
  }
  return {
    ok: false,
    response: singleError(
      400,
      "ERR_IDEMPOTENCY_KEY_INVALID",
      'data.meta["idempotency-key"] must be a string of 1 to 255 visible ASCII characters other than the comma',
      { pointer: `/data/meta/${IDEMPOTENCY_KEY_META}` },
    ),
  };
}

/** Calls the user's create and builds the response to store; `ok: false` when it threw or returned garbage. */
async function runCreate(
  settings: NormalizedHandlerOptions,
  document: EventDocument,
  principal: string,
  idempotencyKey: string | undefined,
  abort: CreateSignal,
): Promise<{ ok: true; response: StoredResponse } | { ok: false }> {
  try {
    const result = await settings.create(
      new CreateRequest(
        eventOf(document, settings.attributeNames),
        document,
        principal,
        idempotencyKey,
        abort,
      ),
    );
    const response = createdResponse(settings, document, result, idempotencyKey);
    return response === undefined ? { ok: false } : { ok: true, response };
  } catch {
    return { ok: false };
  }
}

/** A string with something other than white space, at most 26 characters (code points). */
const isResourceId = (value: unknown): value is string =>
  typeof value === "string" &&
  // No more UTF-16 units than 26 means no more code points; past 52 units, more code points.
  (value.length <= 26 || (value.length <= 52 && [...value].length <= 26)) &&
  (isVisibleAscii(value.charCodeAt(0)) || /\S/.test(value));

/** "!" to "~": never white space (what most ids start with, so the pattern is rarely needed). */
const isVisibleAscii = (code: number) => code > 0x20 && code < 0x7f;

function createdResponse(
  settings: NormalizedHandlerOptions,
  document: EventDocument,
  result: CreateEventResult,
  idempotencyKey: string | undefined,
): StoredResponse | undefined {
  if (!isPlainObject(result) || !isResourceId(result.id)) return undefined;
  if (result.attributes !== undefined && !isPlainObject(result.attributes)) return undefined;
  if (result.relationships !== undefined && !isPlainObject(result.relationships)) return undefined;
  const relationships = result.relationships ?? document.data.relationships;
  const data: Record<string, unknown> = {
    id: result.id,
    type: "events",
    attributes:
      result.attributes === undefined
        ? document.data.attributes
        : { ...document.data.attributes, ...result.attributes },
  };
  if (relationships !== undefined) data.relationships = relationships;
  if (idempotencyKey !== undefined) data.meta = { [IDEMPOTENCY_KEY_META]: idempotencyKey };
  const headers: [string, string][] = [["content-type", JSON_API_MEDIA_TYPE]];
  if (settings.location !== undefined) {
    const location = String(settings.location(result.id));
    // A value a header cannot carry fails here, before anything is stored, not on every replay.
    new Headers({ location });
    headers.push(["location", location]);
  }
  return { status: 201, headers, body: JSON.stringify({ data }) };
}

function toResponse(stored: StoredResponse, replayed = false): Response {
  // The Response copies the headers it is given: only a replay needs a list of its own.
  const headers = replayed ? [...stored.headers, [REPLAYED_HEADER, "true"] as const] : stored.headers;
  return new Response(stored.body, { status: stored.status, headers: headers as [string, string][] });
}

/** Whether `authorize` answered later rather than at once (only then is it awaited). */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
