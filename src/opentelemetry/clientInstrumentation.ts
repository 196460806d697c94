import { context, defaultTextMapSetter, SpanKind, trace } from "@opentelemetry/api";
import type { EventsClientTelemetry } from "../client/EventsClientTelemetry.js";
import { clientTargetAttributes } from "./httpAttributes.js";
import {
  defined,
  fail,
  type InstrumentationKit,
  quietly,
  runWithin,
  startSpan,
} from "./instrumentationKit.js";
import { ATTRIBUTE, RETRY_EVENT, SEMCONV, SPAN } from "./telemetryNames.js";

/**
 * The client's instrumentation: an internal span per `createEvent` (`messaging_events.create_event`)
 * and an HTTP client span per attempt (`POST`) under it, each attempt sending its own trace context;
 * retries are events of the create span, with their wait.
 */
export function clientInstrumentation({ tracer, propagator }: InstrumentationKit): EventsClientTelemetry {
  return {
    startCreateEvent({ eventType, url }) {
      const parent = context.active();
      const span = startSpan(
        tracer,
        SPAN.createEvent,
        { kind: SpanKind.INTERNAL, attributes: { [ATTRIBUTE.eventType]: eventType } },
        parent,
      );
      const within = trace.setSpan(parent, span);
      const target = clientTargetAttributes(url);
      let attempts = 0;
      return {
        startAttempt({ attempt }) {
          attempts = attempt;
          const attemptSpan = startSpan(
            tracer,
            "POST",
            {
              kind: SpanKind.CLIENT,
              attributes: {
                [SEMCONV.method]: "POST",
                ...target,
                [ATTRIBUTE.eventType]: eventType,
                [ATTRIBUTE.attemptNumber]: attempt,
                ...(attempt > 1 ? { [SEMCONV.resendCount]: attempt - 1 } : {}),
              },
            },
            within,
          );
          const headers: Record<string, string> = {};
          propagator.inject(trace.setSpan(within, attemptSpan), headers, defaultTextMapSetter);
          return {
            headers,
            run: runWithin(within, attemptSpan),
            end({ status, errorType }) {
              quietly(() => {
                if (status !== undefined) attemptSpan.setAttribute(SEMCONV.status, status);
                // A status of 400 or more is the error's type, as the conventions say; else the client's reason.
                const failed = status !== undefined && status >= 400 ? String(status) : errorType;
                if (failed !== undefined) fail(attemptSpan, failed);
                attemptSpan.end();
              });
            },
          };
        },
        retry({ attempt, delayMs, status, errorType, retryAfterMs }) {
          quietly(() => {
            span.addEvent(
              RETRY_EVENT,
              defined({
                [ATTRIBUTE.attemptNumber]: attempt,
                [ATTRIBUTE.retryDelayMs]: delayMs,
                [ATTRIBUTE.retryAfterMs]: retryAfterMs,
                [SEMCONV.status]: status,
                [SEMCONV.errorType]: errorType,
              }),
            );
          });
        },
        end({ replayed, errorType }) {
          quietly(() => {
            span.setAttribute(ATTRIBUTE.attemptCount, attempts);
            if (errorType !== undefined) fail(span, errorType);
            else span.setAttribute(ATTRIBUTE.idempotencyOutcome, replayed ? "replayed" : "created");
            span.end();
          });
        },
      };
    },
  };
}
