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
import { type NormalizedHandlerOptions, normalizeHandlerOptions } from "./normalizeHandlerOptions.js";
import { readBodyWithLimit } from "./readBodyWithLimit.js";

/** The header that marks a replayed response. */
const REPLAYED_HEADER = "idempotent-replayed";
/** Seconds a client waits before retrying a key in flight or an unavailable store. */
const RETRY_AFTER_SECONDS = "1";

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
 * - a store that fails or does not answer within `storeTimeoutMs` answers 503 with `Retry-After`.
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
  const handler = (request: Request): Promise<Response> => {
    if (closing.signal.aborted) {
      return Promise.resolve(
        singleError(503, "ERR_UNAVAILABLE", "the server is shutting down; retry later", {
          headers: { "retry-after": RETRY_AFTER_SECONDS },
        }),
      );
    }
    return answer(request);
  };
  return Object.assign(handler, {
    close(): Promise<void> {
      closed ??= (async () => {
        const reason = new Error("the events handler is closing");
        closing.abort(reason);
        for (const create of shutdown.creates) create.abort(reason);
        if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
        shutdown.leases.stop();
        if (settings.ownsStore) await settings.store.close();
      })();
      return closed;
    },
  });
}

/** What a closing handler stops: the signal, and every create under way that read its signal. */
interface Shutdown {
  readonly signal: AbortSignal;
  readonly creates: Set<CreateSignal>;
  /** Renews the lease of every create under way, with one timer. */
  readonly leases: LeaseKeeper<IdempotencyRecordRef>;
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
    return singleError(401, "ERR_UNAUTHORIZED", "the request is not authorized");
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
  const body = await readBodyWithLimit(request, settings.maxBodyBytes);
  if (!body.ok) {
    return body.reason === "too-large"
      ? singleError(413, "ERR_BODY_TOO_LARGE", `the body must be at most ${settings.maxBodyBytes} bytes`)
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
    let created: Awaited<ReturnType<typeof runCreate>>;
    try {
      created = await runCreate(settings, document, principal, undefined, abort);
    } finally {
      abort.done();
    }
    return created.ok ? toResponse(created.response) : internalError();
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
  } catch {
    return unavailable();
  }
  switch (claim.status) {
    case "completed":
      return toResponse(claim.response, true);
    case "in-flight":
      return inFlight();
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
  let created: Awaited<ReturnType<typeof runCreate>>;
  try {
    created = await runCreate(settings, document, principal, key, lost);
  } finally {
    release();
    lost.done();
  }
  if (!created.ok) {
    await storeCall(settings, () => settings.store.release(ref)).catch(() => undefined);
    return internalError();
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
  return stored ? toResponse(created.response) : inFlight();
}

function inFlight(): Response {
  return singleError(
    409,
    "ERR_IDEMPOTENCY_KEY_IN_FLIGHT",
    "a request with this idempotency key is in progress; retry after the delay in Retry-After",
    { headers: { "retry-after": RETRY_AFTER_SECONDS } },
  );
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
