import type { WebhookVerificationErrorCode } from "./WebhookVerificationError.js";
import type { WebhookEventType } from "./webhookEventTypes.js";

/**
 * Instrumentation for `createWebhookReceiver` and `createWebhookVerifier` (their `telemetry`
 * option): one trace per webhook received or verified, with its outcome. `createOpenTelemetry()`
 * from `messaging-events/opentelemetry` makes one that records an OpenTelemetry span per webhook
 * with the verification's outcome code; any object of this shape will do, and nothing of
 * OpenTelemetry is loaded without it.
 *
 * It is called synchronously and never waited for; whatever it throws is ignored and never changes
 * an answer. It is handed the outcome code, the status, the event type and a well-formed delivery
 * id: never the secret, the signature, the headers or the body.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookReceiver, type WebhookTelemetry } from "messaging-events/webhooks";
 *
 * // A stand-in that logs one line per webhook instead of recording spans.
 * const telemetry: WebhookTelemetry = {
 *   startWebhook: ({ operation }) => ({
 *     run: (fn) => fn(),
 *     end: ({ code, status, eventType }) => console.log(operation, status ?? "-", code ?? "verified", eventType ?? "-"),
 *   }),
 * };
 * const receiver = createWebhookReceiver({ secret: "whsec_test", onAny: () => undefined, telemetry });
 * await receiver.close();
 * ```
 */
export interface WebhookTelemetry {
  /**
   * Called when a webhook arrives at the receiver (`"receive"`) or a verifier's method is called
   * (`"verify"`); what it returns follows it to its outcome.
   */
  startWebhook(webhook: { readonly operation: "receive" | "verify" }): {
    /** Runs `fn` (the verification, and the receiver's handler) within this webhook's trace context. */
    run<T>(fn: () => T): T;
    /** Called with the outcome. */
    end(result: {
      /** The error's code (`ERR_WEBHOOK_SIGNATURE_MISMATCH`…); `undefined` when verified (and, for the receiver, processed). */
      readonly code: WebhookVerificationErrorCode | undefined;
      /** The status the receiver answered; `undefined` for a verifier. */
      readonly status: number | undefined;
      /** The webhook's type, once verified and valid. */
      readonly eventType: WebhookEventType | undefined;
      /** The `service-webhook-id`, when the request had a well-formed one (the receiver only). */
      readonly deliveryId: string | undefined;
    }): void;
  };
}
