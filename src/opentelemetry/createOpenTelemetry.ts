import { metrics, propagation, trace } from "@opentelemetry/api";
import { GUARDED_BY_ITSELF } from "../internal/guardTelemetry.js";
import { clientInstrumentation } from "./clientInstrumentation.js";
import { dispatcherInstrumentation } from "./dispatcherInstrumentation.js";
import { handlerInstrumentation } from "./handlerInstrumentation.js";
import type { InstrumentationKit } from "./instrumentationKit.js";
import type { OpenTelemetryInstrumentation, OpenTelemetryOptions } from "./OpenTelemetryOptions.js";
import { SCOPE } from "./telemetryNames.js";
import { webhookInstrumentation } from "./webhookInstrumentation.js";

/**
 * Creates the OpenTelemetry instrumentation of the library: pass what it returns as the
 * `telemetry` option of `createEventsClient`, `createEventsHandler`, `createWebhookDispatcher`,
 * `createWebhookReceiver` and `createWebhookVerifier`. It records:
 *
 * - the client: a span per `createEvent` (`messaging_events.create_event`) and an HTTP client span
 *   per attempt (`POST`), each attempt sending the trace context (`traceparent`), retries as span
 *   events with their wait;
 * - the handler: an HTTP server span per request (`POST /events`) continuing the caller's trace, with
 *   the event type and the idempotency outcome, and each store call as a child span;
 * - the dispatcher: a span per `dispatch`, and an HTTP client span per attempt continuing it, also in
 *   another process (the trace context is stored with each delivery); metrics of attempts by outcome
 *   and status class, their duration, dead deliveries, disabled endpoints and the queue's depth;
 * - the receiver and the verifier: a span per webhook with its outcome code.
 *
 * Names follow the OpenTelemetry semantic conventions where they exist (`http.request.method`,
 * `http.response.status_code`, `url.full` without its query, `server.address`, `error.type`), and
 * the library's own attributes are under `messaging_events.`. No secret, authorization, signature,
 * idempotency key or body is ever recorded. `@opentelemetry/api` is an optional peer dependency:
 * only this subpath imports it.
 *
 * Exported from `messaging-events/opentelemetry`.
 *
 * @example
 * ```ts
 * import { createEventsHandler } from "messaging-events/server";
 * import { createOpenTelemetry } from "messaging-events/opentelemetry";
 *
 * // After the OpenTelemetry SDK started (NodeSDK.start() registers the providers and the propagator).
 * const telemetry = createOpenTelemetry();
 * const handler = createEventsHandler({
 *   authorize: () => "tenant",
 *   create: async () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
 *   telemetry,
 * });
 * await handler.close();
 * ```
 */
export function createOpenTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryInstrumentation {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createOpenTelemetry: options must be an object");
  }
  const { tracerProvider, meterProvider, propagator } = options;
  const given = propagator ?? propagation;
  const kit: InstrumentationKit = {
    tracer: (tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE),
    // A propagator that throws propagates nothing, and breaks nothing.
    propagator: {
      inject: (context, carrier, setter) => {
        try {
          given.inject(context, carrier, setter);
        } catch {}
      },
      extract: (context, carrier, getter) => {
        try {
          return given.extract(context, carrier, getter);
        } catch {
          return context;
        }
      },
    },
    meter: () => (meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE),
  };
  const instrumentation: OpenTelemetryInstrumentation = {
    ...clientInstrumentation(kit),
    ...handlerInstrumentation(kit),
    ...dispatcherInstrumentation(kit),
    ...webhookInstrumentation(kit),
  };
  // Nothing here throws into a component: the SDK calls the operator's samplers, span processors,
  // meters and propagators, so every call that reaches them is made within try (a span that cannot
  // start records nothing), and every `run` here calls its function exactly once. The components
  // need not pay for guarding it.
  Object.defineProperty(instrumentation, GUARDED_BY_ITSELF, { value: true });
  return instrumentation;
}
