import { context, SpanKind, trace } from "@opentelemetry/api";
import type { EventsHandlerTelemetry } from "../server/EventsHandlerTelemetry.js";
import { methodAttributes, serverRequestAttributes } from "./httpAttributes.js";
import { fail, type InstrumentationKit, runWithin } from "./instrumentationKit.js";
import { ATTRIBUTE, SEMCONV, SPAN } from "./telemetryNames.js";

/** The name and options of each store call's span, made once. */
const STORE_SPANS = {
  claim: `${SPAN.storeCall}.claim`,
  complete: `${SPAN.storeCall}.complete`,
  release: `${SPAN.storeCall}.release`,
} as const;
const storeOptions = (operation: string) => ({
  kind: SpanKind.INTERNAL,
  attributes: { [ATTRIBUTE.storeOperation]: operation },
});
const STORE_OPTIONS = {
  claim: storeOptions("claim"),
  complete: storeOptions("complete"),
  release: storeOptions("release"),
} as const;

/** Reads the trace context from a Fetch `Headers`. */
const headersGetter = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => {
    const names: string[] = [];
    headers.forEach((_value, name) => {
      names.push(name);
    });
    return names;
  },
};

/**
 * The handler's instrumentation: an HTTP server span per request (`POST /events`), continuing the
 * caller's trace context; a span already active (a framework's own server span) is its parent
 * instead, and then it is an internal span. Store calls are child spans.
 */
export function handlerInstrumentation({ tracer, propagator }: InstrumentationKit): EventsHandlerTelemetry {
  return {
    startEventsRequest(request) {
      const active = context.active();
      const framework = trace.getSpan(active) !== undefined;
      const parent = framework ? active : propagator.extract(active, request.headers, headersGetter);
      const method = methodAttributes(request.method);
      const span = tracer.startSpan(
        String(method[SEMCONV.method]),
        {
          kind: framework ? SpanKind.INTERNAL : SpanKind.SERVER,
          attributes: { ...method, ...serverRequestAttributes(request.url) },
        },
        parent,
      );
      const within = trace.setSpan(parent, span);
      return {
        run: runWithin(parent, span),
        record({ route, eventType, idempotencyKeySent, idempotency, errorStage }) {
          if (route !== undefined) {
            span.setAttribute(SEMCONV.route, route);
            span.updateName(`${method[SEMCONV.method]} ${route}`);
          }
          if (eventType !== undefined) span.setAttribute(ATTRIBUTE.eventType, eventType);
          if (idempotencyKeySent !== undefined)
            span.setAttribute(ATTRIBUTE.idempotencyKeySent, idempotencyKeySent);
          if (idempotency !== undefined) span.setAttribute(ATTRIBUTE.idempotencyOutcome, idempotency);
          if (errorStage !== undefined) span.setAttribute(ATTRIBUTE.errorStage, errorStage);
        },
        startStoreCall(operation) {
          const call = tracer.startSpan(STORE_SPANS[operation], STORE_OPTIONS[operation], within);
          return {
            end(errorType) {
              if (errorType !== undefined) fail(call, errorType);
              call.end();
            },
          };
        },
        end({ status, errorType }) {
          span.setAttribute(SEMCONV.status, status);
          if (errorType !== undefined) fail(span, errorType);
          span.end();
        },
      };
    },
  };
}
