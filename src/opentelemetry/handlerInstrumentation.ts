import { type Attributes, context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { EventsHandlerTelemetry } from "../server/EventsHandlerTelemetry.js";
import { requestAttributes } from "./httpAttributes.js";
import { fail, type InstrumentationKit, quietly, runIn, startSpan } from "./instrumentationKit.js";
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
      const attributes = requestAttributes(request.method, request.url);
      // A method the conventions do not name is `_OTHER` in the attribute, and `HTTP` in the span's name.
      const method =
        attributes[SEMCONV.method] === "_OTHER" ? "HTTP" : (attributes[SEMCONV.method] as string);
      // A copy of the shared attributes: a tracer (or its sampler) that writes into what it is
      // handed must not carry one request's attributes into the next.
      const span = startSpan(
        tracer,
        method,
        { kind: framework ? SpanKind.INTERNAL : SpanKind.SERVER, attributes: { ...attributes } },
        parent,
      );
      const within = trace.setSpan(parent, span);
      // What the handler learns is kept here and given to the span once, when it ends: one call
      // into the SDK (which checks every attribute it is given) rather than one per fact.
      let route: string | undefined;
      let eventType: string | undefined;
      let keySent: boolean | undefined;
      let idempotency: string | undefined;
      let errorStage: string | undefined;
      function endRequest(status: number, errorType: string | undefined): void {
        const learnt: Attributes = { [SEMCONV.status]: status };
        if (route !== undefined) {
          learnt[SEMCONV.route] = route;
          span.updateName(`${method} ${route}`);
        }
        if (eventType !== undefined) learnt[ATTRIBUTE.eventType] = eventType;
        if (keySent !== undefined) learnt[ATTRIBUTE.idempotencyKeySent] = keySent;
        if (idempotency !== undefined) learnt[ATTRIBUTE.idempotencyOutcome] = idempotency;
        if (errorStage !== undefined) learnt[ATTRIBUTE.errorStage] = errorStage;
        if (errorType !== undefined) {
          learnt[SEMCONV.errorType] = errorType;
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.setAttributes(learnt);
        span.end();
      }
      return {
        run: runIn(within),
        record(facts) {
          if (facts.route !== undefined) route = facts.route;
          if (facts.eventType !== undefined) eventType = facts.eventType;
          if (facts.idempotencyKeySent !== undefined) keySent = facts.idempotencyKeySent;
          if (facts.idempotency !== undefined) idempotency = facts.idempotency;
          if (facts.errorStage !== undefined) errorStage = facts.errorStage;
        },
        startStoreCall(operation) {
          const call = startSpan(tracer, STORE_SPANS[operation], STORE_OPTIONS[operation], within);
          return {
            end(errorType) {
              quietly(() => {
                if (errorType !== undefined) fail(call, errorType);
                call.end();
              });
            },
          };
        },
        end({ status, errorType }) {
          quietly(() => endRequest(status, errorType));
        },
      };
    },
  };
}
