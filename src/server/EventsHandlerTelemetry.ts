/**
 * Instrumentation for `createEventsHandler` (its `telemetry` option): one trace per request, what
 * the handler learns as it answers (the event type, the idempotency outcome), and each call to the
 * idempotency store. `createOpenTelemetry()` from `messaging-events/opentelemetry` makes one that
 * records an HTTP server span (continuing the caller's `traceparent`) with the store calls as child
 * spans; any object of this shape will do, and nothing of OpenTelemetry is loaded without it.
 *
 * The handler calls it synchronously and never waits for it; whatever it throws is ignored and never
 * changes an answer. It is handed the request (to read the trace context from its headers: record
 * none of the others, `Authorization` is among them), the event type, outcomes, statuses and error
 * codes: never the body, the principal or the idempotency key.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createEventsHandler, type EventsHandlerTelemetry } from "messaging-events/server";
 *
 * // A stand-in that logs one line per request instead of recording spans.
 * const telemetry: EventsHandlerTelemetry = {
 *   startEventsRequest: (request) => {
 *     const facts: Record<string, unknown> = {};
 *     return {
 *       run: (fn) => fn(),
 *       record: (learnt) => Object.assign(facts, learnt),
 *       startStoreCall: () => ({ end: () => undefined }),
 *       end: ({ status }) => console.log(request.method, new URL(request.url).pathname, status, facts),
 *     };
 *   },
 * };
 * const handler = createEventsHandler({ authorize: () => "tenant", create: () => ({ id: "1" }), telemetry });
 * await handler.close();
 * ```
 */
export interface EventsHandlerTelemetry {
  /** Called when a request reaches the handler; what it returns follows the request to its answer. */
  startEventsRequest(request: Request): {
    /** Runs `fn` (the handling of the request: `authorize`, `create`) within the request's trace context. */
    run<T>(fn: () => T): T;
    /** What the handler learnt about the request, as soon as it knows it; called several times. */
    record(facts: {
      /** The path the handler serves (`path`), once the request's path matched it. */
      readonly route?: string;
      /** The validated event's type. */
      readonly eventType?: string;
      /** Whether the request carried an idempotency key (its value is never given). */
      readonly idempotencyKeySent?: boolean;
      /**
       * What the key came to: `"created"` (this request ran `create`), `"replayed"` (a stored
       * answer was replayed), `"in-flight"` (another request holds the key: 409) or `"reused"`
       * (the key came with another document: 422).
       */
      readonly idempotency?: "created" | "replayed" | "in-flight" | "reused";
      /** The stage of a failure on the server's side, as `onError` hears it. */
      readonly errorStage?: string;
    }): void;
    /** Called before each call to the idempotency store; what it returns ends with the call. */
    startStoreCall(operation: "claim" | "complete" | "release"): {
      /** Called when the call settled: `errorType` is its error's code (`"timeout"` past `storeTimeoutMs`). */
      end(errorType: string | undefined): void;
    };
    /** Called with the status answered (and, for a 5xx, why). */
    end(result: { readonly status: number; readonly errorType: string | undefined }): void;
  };
}
