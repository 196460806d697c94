import {
  type Attributes,
  type Counter,
  context,
  createNoopMeter,
  type Histogram,
  type Link,
  type Meter,
  type ObservableGauge,
  type ObservableResult,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { DeliveryTraceContext } from "../dispatch/DeliveryQueue.js";
import type { WebhookDispatcherTelemetry } from "../dispatch/WebhookDispatcherTelemetry.js";
import { deliveryTraceOf, spanContextOfDelivery } from "./deliveryTraceContext.js";
import { endpointTargetAttributes, statusClassOf } from "./httpAttributes.js";
import {
  defined,
  fail,
  type InstrumentationKit,
  quietly,
  runWithin,
  startSpan,
} from "./instrumentationKit.js";
import { ATTRIBUTE, DURATION_BUCKETS, METRIC, SEMCONV, SPAN } from "./telemetryNames.js";

/**
 * The statuses HTTP registers (RFC 9110 and the IANA registry): an attempt's metrics keep these as
 * their own error type. An endpoint chooses its status, and any of 200 to 999 reaches the
 * dispatcher: any other is `_OTHER`.
 */
const REGISTERED_STATUSES: ReadonlySet<string> = new Set(
  ["300-305", "307-308", "400-418", "421-426", "428-429", "431", "451", "500-508", "510-511"].flatMap(
    (range) => {
      const [first, last = first] = range.split("-").map(Number) as [number, number?];
      return Array.from({ length: last - first + 1 }, (_, i) => String(first + i));
    },
  ),
);
/** How many error types other than statuses the metrics keep before the next ones are `_OTHER`. */
const MAX_OTHER_TYPES = 64;
/** The error types other than statuses seen so far (at most {@link MAX_OTHER_TYPES}). */
const otherTypes = new Set<string>();

/** The error type an attempt's metrics record: one of a bounded set, whatever the endpoints answer. */
function measuredType(errorType: string | undefined): string | undefined {
  if (errorType === undefined || REGISTERED_STATUSES.has(errorType) || otherTypes.has(errorType))
    return errorType;
  if (/^\d+$/.test(errorType) || errorType.length > 64 || otherTypes.size >= MAX_OTHER_TYPES) return "_OTHER";
  otherTypes.add(errorType);
  return errorType;
}

/**
 * The attribute sets of an attempt's metrics, made once per outcome, status class and error type.
 * Every set is a series the metrics backend keeps: error types are bounded ({@link measuredType}),
 * outcomes and status classes are a handful each.
 */
const measuredCache = new Map<string, Attributes>();
function measuredAttributes(outcome: string, statusClass: string, errorType: string | undefined): Attributes {
  const kept = measuredType(errorType);
  const key = `${outcome} ${statusClass} ${kept ?? ""}`;
  let measured = measuredCache.get(key);
  if (measured === undefined) {
    measured = Object.freeze(
      defined({
        [ATTRIBUTE.attemptOutcome]: outcome,
        [ATTRIBUTE.statusClass]: statusClass,
        [SEMCONV.errorType]: kept,
      }),
    );
    // Bounded by the bounds above; a limit anyway, should a caller hand other outcomes.
    if (measuredCache.size < 4_096) measuredCache.set(key, measured);
  }
  return measured;
}

interface DispatcherInstruments {
  readonly attempts: Counter;
  readonly duration: Histogram;
  readonly dead: Counter;
  readonly disabled: Counter;
  readonly depth: ObservableGauge;
}

/**
 * The dispatcher's instrumentation: a producer span per `dispatch` (`messaging_events.dispatch`),
 * whose W3C trace context each delivery stores; an HTTP client span per attempt (`POST`), child of
 * the dispatch's span (and linked to it) wherever the attempt runs; and the metrics of attempts,
 * their duration, dead deliveries, disabled endpoints and the queue's depth.
 */
export function dispatcherInstrumentation(kit: InstrumentationKit): WebhookDispatcherTelemetry {
  const { tracer } = kit;
  let instruments: DispatcherInstruments | undefined;
  /** The instruments, made once, when the first dispatcher is created (after the SDK started). */
  const instrumentsNow = (): DispatcherInstruments => {
    if (instruments !== undefined) return instruments;
    try {
      instruments = instrumentsOf(kit.meter());
    } catch {
      // A meter provider that throws: the spans are still recorded, the metrics are not.
      instruments = instrumentsOf(createNoopMeter());
    }
    return instruments;
  };
  const instrumentsOf = (meter: Meter): DispatcherInstruments => ({
    attempts: meter.createCounter(METRIC.attempts, {
      description: "Webhook delivery attempts, by outcome and status class",
      unit: "{attempt}",
    }),
    duration: meter.createHistogram(METRIC.attemptDuration, {
      description: "How long webhook delivery attempts took",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    dead: meter.createCounter(METRIC.deadDeliveries, {
      description: "Webhook deliveries that died (retries exhausted, endpoint gone or disabled)",
      unit: "{delivery}",
    }),
    disabled: meter.createCounter(METRIC.disabledEndpoints, {
      description: "Webhook endpoints disabled, by reason",
      unit: "{endpoint}",
    }),
    depth: meter.createObservableGauge(METRIC.queueDepth, {
      description: "Webhook deliveries in the queue, by state",
      unit: "{delivery}",
    }),
  });
  return {
    startDispatcher({ queueDepth }) {
      const { attempts, duration, dead, disabled, depth } = instrumentsNow();
      const observe =
        queueDepth === undefined
          ? undefined
          : (result: ObservableResult) => {
              const counts = queueDepth();
              for (const state of ["waiting", "leased", "dead"] as const) {
                result.observe(counts[state], { [ATTRIBUTE.queueState]: state });
              }
            };
      if (observe !== undefined) quietly(() => depth.addCallback(observe));
      return {
        startDispatch() {
          const parent = context.active();
          const span = startSpan(tracer, SPAN.dispatch, { kind: SpanKind.PRODUCER }, parent);
          let stored: DeliveryTraceContext | undefined;
          quietly(() => {
            stored = deliveryTraceOf(span.spanContext());
          });
          return {
            trace: stored,
            run: runWithin(parent, span),
            end({ eventType, deliveries, errorType }) {
              quietly(() => {
                span.setAttributes(
                  defined({ [ATTRIBUTE.eventType]: eventType, [ATTRIBUTE.deliveryCount]: deliveries }),
                );
                if (errorType !== undefined) fail(span, errorType);
                span.end();
              });
            },
          };
        },
        startAttempt(attempt) {
          const dispatched = spanContextOfDelivery(attempt.trace);
          // The dispatch's trace goes on, even in another process hours later; the link says so to
          // backends that show links rather than parents.
          const parent =
            dispatched === undefined ? context.active() : trace.setSpanContext(context.active(), dispatched);
          const links: Link[] = dispatched === undefined ? [] : [{ context: dispatched }];
          const span = startSpan(
            tracer,
            "POST",
            {
              kind: SpanKind.CLIENT,
              links,
              attributes: {
                [SEMCONV.method]: "POST",
                ...endpointTargetAttributes(attempt.url),
                [ATTRIBUTE.deliveryId]: attempt.deliveryId,
                [ATTRIBUTE.eventId]: attempt.eventId,
                [ATTRIBUTE.endpointId]: attempt.endpointId,
                [ATTRIBUTE.eventType]: attempt.eventType,
                [ATTRIBUTE.attemptNumber]: attempt.attempt,
                ...(attempt.attempt > 1 ? { [SEMCONV.resendCount]: attempt.attempt - 1 } : {}),
              },
            },
            parent,
          );
          return {
            run: runWithin(parent, span),
            end({ status, outcome, errorType, durationMs }) {
              const failed = outcome === "delivered" ? undefined : (errorType ?? "_OTHER");
              quietly(() => {
                const learnt: Attributes = { [ATTRIBUTE.attemptOutcome]: outcome };
                if (status !== undefined) learnt[SEMCONV.status] = status;
                if (failed !== undefined) {
                  learnt[SEMCONV.errorType] = failed;
                  span.setStatus({ code: SpanStatusCode.ERROR });
                }
                span.setAttributes(learnt);
                span.end();
              });
              quietly(() => {
                const measured = measuredAttributes(outcome, statusClassOf(status), failed);
                attempts.add(1, measured);
                duration.record(Math.max(0, durationMs) / 1000, measured);
              });
            },
          };
        },
        deliveryDead({ eventType }) {
          quietly(() => dead.add(1, { [ATTRIBUTE.eventType]: eventType }));
        },
        endpointDisabled({ reason }) {
          quietly(() => disabled.add(1, { [ATTRIBUTE.disabledReason]: reason }));
        },
        close() {
          if (observe !== undefined) quietly(() => depth.removeCallback(observe));
        },
      };
    },
  };
}
