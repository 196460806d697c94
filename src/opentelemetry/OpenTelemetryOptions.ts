import type { MeterProvider, TextMapPropagator, TracerProvider } from "@opentelemetry/api";
import type { EventsClientTelemetry } from "../client/EventsClientTelemetry.js";
import type { WebhookDispatcherTelemetry } from "../dispatch/WebhookDispatcherTelemetry.js";
import type { EventsHandlerTelemetry } from "../server/EventsHandlerTelemetry.js";
import type { WebhookTelemetry } from "../webhooks/WebhookTelemetry.js";

/**
 * The options of `createOpenTelemetry`: where spans and metrics go, and how the trace context
 * travels in HTTP headers. Each defaults to what is registered with the OpenTelemetry API (the Node
 * SDK's `start()` registers all three).
 *
 * Exported from `messaging-events/opentelemetry`.
 *
 * @example
 * ```ts
 * import { W3CTraceContextPropagator } from "@opentelemetry/core";
 * import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
 * import type { OpenTelemetryOptions } from "messaging-events/opentelemetry";
 *
 * const options: OpenTelemetryOptions = {
 *   tracerProvider: new BasicTracerProvider(),
 *   propagator: new W3CTraceContextPropagator(),
 * };
 * ```
 */
export interface OpenTelemetryOptions {
  /**
   * Where spans go.
   * @default the global tracer provider (trace.getTracerProvider())
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Where the dispatcher's metrics go. The global one is read when each dispatcher is created: start
   * the SDK first.
   * @default the global meter provider (metrics.getMeterProvider())
   */
  readonly meterProvider?: MeterProvider;
  /**
   * How the trace context is written to the client's requests and read from the handler's
   * (`traceparent` and `tracestate` with W3C Trace Context). Deliveries carry W3C Trace Context
   * through their queue whatever this is.
   * @default the global propagator (propagation)
   */
  readonly propagator?: TextMapPropagator;
}

/**
 * What `createOpenTelemetry` returns: one object that every component takes as its `telemetry`
 * option, the client, the events handler, the dispatcher, the webhook receiver and verifier alike.
 *
 * Exported from `messaging-events/opentelemetry`.
 *
 * @example
 * ```ts
 * import { createEventsClient } from "messaging-events/client";
 * import { createOpenTelemetry, type OpenTelemetryInstrumentation } from "messaging-events/opentelemetry";
 *
 * const telemetry: OpenTelemetryInstrumentation = createOpenTelemetry();
 * const client = createEventsClient({ baseUrl: "https://api.example.com", authorization: "Bearer token", telemetry });
 * ```
 */
export interface OpenTelemetryInstrumentation
  extends EventsClientTelemetry,
    EventsHandlerTelemetry,
    WebhookDispatcherTelemetry,
    WebhookTelemetry {}
