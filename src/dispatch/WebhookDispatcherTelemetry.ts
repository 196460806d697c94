import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";
import type { DeliveryTraceContext } from "./DeliveryQueue.js";
import type { DeliveryAttempt, EndpointDisabledReason } from "./WebhookDispatcherOptions.js";

/**
 * Instrumentation for `createWebhookDispatcher` (its `telemetry` option): one trace per `dispatch`,
 * whose trace context is stored with each delivery (so that it travels through a durable queue to
 * the process that delivers), one trace per attempt continuing it, and what operators count:
 * deliveries dead, endpoints disabled, the queue's depth. `createOpenTelemetry()` from
 * `messaging-events/opentelemetry` makes one that records OpenTelemetry spans and metrics; any
 * object of this shape will do, and nothing of OpenTelemetry is loaded without it.
 *
 * The dispatcher calls it synchronously and never waits for it; whatever it throws is ignored and
 * never changes a delivery. It is handed ids, the event type, the endpoint's URL, statuses and
 * outcomes: never a secret, a signature, a payload or an endpoint's answer.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createWebhookDispatcher, type WebhookDispatcherTelemetry } from "messaging-events/dispatch";
 *
 * // A stand-in that counts outcomes instead of recording metrics.
 * const outcomes = new Map<string, number>();
 * const telemetry: WebhookDispatcherTelemetry = {
 *   startDispatcher: () => ({
 *     startDispatch: () => ({ run: (fn) => fn(), end: () => undefined }),
 *     startAttempt: () => ({
 *       run: (fn) => fn(),
 *       end: ({ outcome }) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1),
 *     }),
 *     deliveryDead: () => undefined,
 *     endpointDisabled: () => undefined,
 *     close: () => undefined,
 *   }),
 * };
 * const dispatcher = createWebhookDispatcher({ endpoints: [], telemetry });
 * await dispatcher.close();
 * ```
 */
export interface WebhookDispatcherTelemetry {
  /**
   * Called once, when the dispatcher is created; what it returns lives until `close()`.
   * `queueDepth` tells how many deliveries wait, are leased and are dead, when the queue can tell
   * (the memory queue's `counts()`); it is `undefined` otherwise.
   */
  startDispatcher(dispatcher: {
    readonly queueDepth:
      | (() => { readonly waiting: number; readonly leased: number; readonly dead: number })
      | undefined;
  }): {
    /** Called when `dispatch` starts. */
    startDispatch(): {
      /** The trace context to store with each delivery of this dispatch: W3C `traceparent` and `tracestate`. */
      readonly trace?: DeliveryTraceContext;
      /** Runs `fn` (building the payload, queueing the deliveries) within this dispatch's trace context. */
      run<T>(fn: () => T): T;
      /**
       * Called when `dispatch` settles: the webhook type (`undefined` when no payload could be
       * built), how many deliveries it queued, and why it was refused, if it was.
       */
      end(result: {
        readonly eventType: WebhookEventType | undefined;
        readonly deliveries: number;
        readonly errorType: string | undefined;
      }): void;
    };
    /**
     * Called before an attempt is sent (or, when it fails before anything is sent, when it fails),
     * with the trace context its delivery was stored with.
     */
    startAttempt(attempt: {
      readonly deliveryId: string;
      readonly eventId: string;
      readonly endpointId: string;
      readonly eventType: WebhookEventType;
      /** The attempt's number, from 1. */
      readonly attempt: number;
      /** The endpoint's URL without its query, or `undefined` when the attempt failed before one was known. */
      readonly url: string | undefined;
      /** The trace context of the dispatch that created the delivery, if it was stored with one. */
      readonly trace: DeliveryTraceContext | undefined;
    }): {
      /** Runs `fn` (the request) within this attempt's trace context, and returns what it returns. */
      run<T>(fn: () => T): T;
      /** Called once the attempt's outcome is settled with the queue. */
      end(result: {
        /** The HTTP status, `undefined` when no response came. */
        readonly status: number | undefined;
        /** What happens to the delivery now. */
        readonly outcome: DeliveryAttempt["outcome"];
        /** Why it failed: the status (`"503"`), `"timeout"`, a network code, `"destination_refused"`, …; `undefined` when delivered. */
        readonly errorType: string | undefined;
        /** How long the attempt took, in milliseconds. */
        readonly durationMs: number;
      }): void;
    };
    /** Called when a delivery dies. */
    deliveryDead(dead: { readonly eventType: WebhookEventType; readonly endpointId: string }): void;
    /** Called when an endpoint is disabled. */
    endpointDisabled(disabled: {
      readonly endpointId: string;
      readonly reason: EndpointDisabledReason;
    }): void;
    /** Called when the dispatcher closes: stop observing its queue. */
    close(): void;
  };
}
