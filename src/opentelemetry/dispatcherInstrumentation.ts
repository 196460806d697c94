import {
  type Attributes,
  type Counter,
  context,
  type Histogram,
  type Link,
  type ObservableGauge,
  type ObservableResult,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { WebhookDispatcherTelemetry } from "../dispatch/WebhookDispatcherTelemetry.js";
import { deliveryTraceOf, spanContextOfDelivery } from "./deliveryTraceContext.js";
import { clientTargetAttributes, statusClassOf } from "./httpAttributes.js";
import { defined, fail, type InstrumentationKit, runWithin } from "./instrumentationKit.js";
import { ATTRIBUTE, DURATION_BUCKETS, METRIC, SEMCONV, SPAN } from "./telemetryNames.js";

/** The attributes of an attempt's metrics, made once per outcome, status class and error type. */
const measuredCache = new Map<string, Attributes>();
function measuredAttributes(outcome: string, statusClass: string, errorType: string | undefined): Attributes {
  const key = `${outcome} ${statusClass} ${errorType ?? ""}`;
  let measured = measuredCache.get(key);
  if (measured === undefined) {
    measured = defined({
      [ATTRIBUTE.attemptOutcome]: outcome,
      [ATTRIBUTE.statusClass]: statusClass,
      [SEMCONV.errorType]: errorType,
    });
    // Error types are the library's codes and a few of the runtime's: a handful, but bounded anyway.
    if (measuredCache.size < 256 && key.length <= 128) measuredCache.set(key, measured);
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
    const meter = kit.meter();
    instruments = {
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
    };
    return instruments;
  };
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
      if (observe !== undefined) depth.addCallback(observe);
      return {
        startDispatch() {
          const parent = context.active();
          const span = tracer.startSpan(SPAN.dispatch, { kind: SpanKind.PRODUCER }, parent);
          return {
            trace: deliveryTraceOf(span.spanContext()),
            run: runWithin(parent, span),
            end({ eventType, deliveries, errorType }) {
              span.setAttributes(
                defined({ [ATTRIBUTE.eventType]: eventType, [ATTRIBUTE.deliveryCount]: deliveries }),
              );
              if (errorType !== undefined) fail(span, errorType);
              span.end();
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
          const span = tracer.startSpan(
            "POST",
            {
              kind: SpanKind.CLIENT,
              links,
              attributes: {
                [SEMCONV.method]: "POST",
                ...clientTargetAttributes(attempt.url),
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
              const learnt: Attributes = { [ATTRIBUTE.attemptOutcome]: outcome };
              if (status !== undefined) learnt[SEMCONV.status] = status;
              if (failed !== undefined) {
                learnt[SEMCONV.errorType] = failed;
                span.setStatus({ code: SpanStatusCode.ERROR });
              }
              span.setAttributes(learnt);
              span.end();
              const measured = measuredAttributes(outcome, statusClassOf(status), failed);
              attempts.add(1, measured);
              duration.record(Math.max(0, durationMs) / 1000, measured);
            },
          };
        },
        deliveryDead({ eventType }) {
          dead.add(1, { [ATTRIBUTE.eventType]: eventType });
        },
        endpointDisabled({ reason }) {
          disabled.add(1, { [ATTRIBUTE.disabledReason]: reason });
        },
        close() {
          if (observe !== undefined) depth.removeCallback(observe);
        },
      };
    },
  };
}
