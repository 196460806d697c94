import { context, SpanKind } from "@opentelemetry/api";
import type { WebhookTelemetry } from "../webhooks/WebhookTelemetry.js";
import {
  defined,
  fail,
  type InstrumentationKit,
  quietly,
  runWithin,
  startSpan,
} from "./instrumentationKit.js";
import { ATTRIBUTE, SEMCONV, SPAN } from "./telemetryNames.js";

/**
 * The receiver's and the verifier's instrumentation: an internal span per webhook
 * (`messaging_events.webhook.receive`, `messaging_events.webhook.verify`) with its outcome: the
 * error's code, or `processed` (receiver) / `verified` (verifier).
 */
export function webhookInstrumentation({ tracer }: InstrumentationKit): WebhookTelemetry {
  return {
    startWebhook({ operation }) {
      const parent = context.active();
      const span = startSpan(
        tracer,
        operation === "receive" ? SPAN.receive : SPAN.verify,
        { kind: SpanKind.INTERNAL },
        parent,
      );
      return {
        run: runWithin(parent, span),
        end({ code, status, eventType, deliveryId }) {
          quietly(() => {
            span.setAttributes(
              defined({
                [ATTRIBUTE.webhookOutcome]: code ?? (operation === "receive" ? "processed" : "verified"),
                [SEMCONV.status]: status,
                [ATTRIBUTE.eventType]: eventType,
                [ATTRIBUTE.deliveryId]: deliveryId,
              }),
            );
            // The receiver failed when it answered 5xx (a 401 is a refusal, not a failure); a verification, when it did not verify.
            if (code !== undefined && (status === undefined || status >= 500)) fail(span, code);
            span.end();
          });
        },
      };
    },
  };
}
