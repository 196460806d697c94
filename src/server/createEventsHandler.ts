import { LeaseKeeper } from "../internal/leaseKeeper.js";
import type { EventsHandler, EventsHandlerOptions } from "./EventsHandlerOptions.js";
import { handleEventsRequest } from "./handleEventsRequest.js";
import { HANDLER_DEFAULTS, normalizeHandlerOptions } from "./normalizeHandlerOptions.js";
import { REPORT_ERROR, type ReportError, RequestErrors, type RequestTrace } from "./RequestErrors.js";
import { internalError, shuttingDown } from "./retryLaterResponses.js";
import type { Shutdown } from "./Shutdown.js";
import { storeCall } from "./storeCall.js";
import { withCors } from "./withCors.js";

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

  const answer = async (request: Request, trace: RequestTrace | undefined): Promise<Response> => {
    running++;
    const errors = new RequestErrors(settings.onError, request, trace);
    try {
      return await handleEventsRequest(request, settings, shutdown, errors);
    } catch (error) {
      errors.report("internal", error, 500);
      return internalError();
    } finally {
      if (--running === 0) drained?.();
    }
  };
  const { cors, telemetry } = settings;
  const answerOrRefuse = (request: Request, trace: RequestTrace | undefined): Promise<Response> =>
    closing.signal.aborted ? Promise.resolve(shuttingDown()) : answer(request, trace);
  const respond = (request: Request, trace: RequestTrace | undefined): Promise<Response> =>
    cors === undefined
      ? answerOrRefuse(request, trace)
      : withCors(cors, request, settings.path, (inner) => answerOrRefuse(inner, trace));
  /** The answer within the request's trace, which learns its status (and, for a 5xx, that it failed). */
  const traced = (request: Request, trace: RequestTrace): Promise<Response> => {
    const ended = (status: number) =>
      trace.end({ status, errorType: status >= 500 ? String(status) : undefined });
    return trace
      .run(() => respond(request, trace))
      .then(
        (response) => {
          ended(response.status);
          return response;
        },
        (error: unknown) => {
          ended(500);
          throw error;
        },
      );
  };
  const handler = (request: Request): Promise<Response> => {
    let trace: RequestTrace | undefined;
    try {
      trace = telemetry?.startEventsRequest(request);
    } catch {
      // An instrumentation that reads the request (its method, URL, headers) may meet one whose
      // getters throw: the request is then answered untraced, as without instrumentation.
      trace = undefined;
    }
    return trace === undefined ? respond(request, undefined) : traced(request, trace);
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
  const reportError: ReportError = (request, stage, error, status) =>
    new RequestErrors(settings.onError, request).report(stage, error, status);
  return Object.assign(handler, {
    [REPORT_ERROR]: reportError,
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
