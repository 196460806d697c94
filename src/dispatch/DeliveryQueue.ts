import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";

/**
 * The trace context of the dispatch that created a delivery, as W3C Trace Context strings: it
 * travels with the delivery through the queue (to another process, with a durable queue), so that
 * each attempt continues the dispatch's trace. Stored only when the dispatcher has `telemetry`.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { DeliveryTraceContext } from "messaging-events/dispatch";
 *
 * const trace: DeliveryTraceContext = {
 *   traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
 *   tracestate: "vendor=value",
 * };
 * ```
 */
export interface DeliveryTraceContext {
  /** The `traceparent` value: version, trace id, parent span id and flags, in lowercase hex. */
  readonly traceparent: string;
  /** The `tracestate` value, when there is one (at most 512 characters). */
  readonly tracestate?: string;
}

/**
 * One delivery as a queue stores it: one event for one endpoint. It never holds a secret or a URL
 * (the dispatcher looks both up by `endpointId` at each attempt), so a durable queue stores nothing
 * secret.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { QueuedDelivery } from "messaging-events/dispatch";
 *
 * const delivery: QueuedDelivery = {
 *   id: "4f0c1a1e-6a8e-4c43-9d7e-0d7f3c1c2b11",
 *   eventId: "8b7c9e2a-1f4d-4b6a-9c3e-5a2d1e0f9b87",
 *   endpointId: "acme",
 *   type: "s.room.close",
 *   body: '{"type":"s.room.close","version":2,"content":{}}',
 *   createdAt: Date.now(),
 * };
 * ```
 */
export interface QueuedDelivery {
  /** The delivery id, sent as `service-webhook-id` on every attempt. */
  readonly id: string;
  /** The id shared by the deliveries of one dispatched event. */
  readonly eventId: string;
  /** The endpoint it goes to. */
  readonly endpointId: string;
  /** The event type, for hooks and listings. */
  readonly type: WebhookEventType;
  /** The payload, serialised once: every attempt sends these exact bytes. */
  readonly body: string;
  /** When it was dispatched, in epoch milliseconds. */
  readonly createdAt: number;
  /**
   * The trace context of the dispatch, when the dispatcher that created it has `telemetry`: W3C
   * Trace Context strings only. A queue keeps it as it is; one that is not W3C Trace Context is
   * dropped.
   */
  readonly trace?: DeliveryTraceContext;
}

/**
 * A delivery handed to one worker by {@link DeliveryQueue.take}: the delivery, how many attempts
 * were already made, and the lock that makes it this worker's until `lockExpiresAt`. A queue hands a
 * leased delivery to no one else until the lock expires (a crashed worker's delivery is then taken
 * over: delivery is at least once).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createMemoryDeliveryQueue, type DeliveryLease } from "messaging-events/dispatch";
 *
 * const queue = createMemoryDeliveryQueue();
 * const lease: DeliveryLease | undefined = await queue.take({ signal: AbortSignal.timeout(10) });
 * console.log(lease); // undefined: nothing was queued
 * await queue.close();
 * ```
 */
export interface DeliveryLease {
  /** What to deliver. */
  readonly delivery: QueuedDelivery;
  /** Attempts already made (0 for the first attempt). */
  readonly attempts: number;
  /** Proves the lease: the queue ignores a `complete`, `retry` or `dead` with a stale token. */
  readonly token: string;
  /** When the lock expires, in epoch milliseconds; after that the delivery may be handed out again. */
  readonly lockExpiresAt: number;
}

/**
 * A delivery that failed for good (its retries ran out, its endpoint answered 410 or was disabled):
 * kept by the queue, listed by `listDead` and sent again by `replay`.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { DeadDelivery } from "messaging-events/dispatch";
 *
 * function line(dead: DeadDelivery): string {
 *   return `${dead.id} to ${dead.endpointId}: ${dead.reason} after ${dead.attempts} attempts`;
 * }
 * ```
 */
export interface DeadDelivery extends QueuedDelivery {
  /** Attempts made. */
  readonly attempts: number;
  /** Why it died, in words (never a secret). */
  readonly reason: string;
  /** When it died, in epoch milliseconds. */
  readonly diedAt: number;
  /** What the endpoint answered to the last attempt, when it answered. */
  readonly lastResponse?: AttemptResponse;
}

/**
 * What an endpoint answered to an attempt: its status and the first bytes of its body (at most
 * 1 KiB of UTF-8, control characters replaced by U+FFFD), so that you can tell a customer why their
 * endpoint fails.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { AttemptResponse } from "messaging-events/dispatch";
 *
 * const answer: AttemptResponse = { status: 500, body: '{"error":"database unavailable"}' };
 * console.log(`the endpoint answered ${answer.status}: ${answer.body}`);
 * ```
 */
export interface AttemptResponse {
  /** The HTTP status. */
  readonly status: number;
  /** The first bytes of the body as text: at most 1 KiB of UTF-8, control characters replaced. */
  readonly body: string;
}

/**
 * Where deliveries wait between attempts: the small interface the dispatcher drives, so that one
 * process can keep them in memory ({@link createMemoryDeliveryQueue}) and several can share a durable
 * queue (`createBullMQDeliveryQueue` from `messaging-events/dispatch/bullmq`). The dispatcher
 * calls `add` when it dispatches; its workers loop on `take`, make one attempt, then call exactly one
 * of `complete`, `retry`, `dead` or `release` with the lease. Delivery is at least once: a lease whose
 * lock expires (a crashed or stuck worker) is handed out again.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createMemoryDeliveryQueue, type DeliveryQueue } from "messaging-events/dispatch";
 *
 * const queue: DeliveryQueue = createMemoryDeliveryQueue();
 * await queue.add([{ id: "d-1", eventId: "e-1", endpointId: "acme", type: "s.room.close", body: "{}", createdAt: Date.now() }]);
 * const lease = await queue.take({});
 * if (lease) await queue.complete(lease);
 * await queue.close();
 * ```
 */
export interface DeliveryQueue {
  /** Stores new deliveries, due at once. A delivery whose id is already stored is left as it is. */
  add(deliveries: readonly QueuedDelivery[]): Promise<void>;
  /**
   * Waits for a due delivery and leases it to the caller. Resolves to `undefined` when `signal`
   * aborts or the queue closes.
   */
  take(options: { readonly signal?: AbortSignal }): Promise<DeliveryLease | undefined>;
  /** The attempt succeeded: the delivery is done. */
  complete(lease: DeliveryLease): Promise<void>;
  /** The attempt failed: count it, and hand the delivery out again at `retryAt` (epoch ms). */
  retry(lease: DeliveryLease, retryAt: number, reason: string): Promise<void>;
  /**
   * The attempt failed for good: count it and keep the delivery as dead, with what the endpoint last
   * answered (if it answered).
   */
  dead(lease: DeliveryLease, reason: string, lastResponse?: AttemptResponse): Promise<void>;
  /** Gives a lease back unattempted, due at once (a worker that stops before sending). */
  release(lease: DeliveryLease): Promise<void>;
  /**
   * Gives a lease back unattempted (its attempt count unchanged), due again at `dueAt` (epoch ms):
   * its endpoint was busy, rate-limited or its circuit open.
   */
  defer(lease: DeliveryLease, dueAt: number): Promise<void>;
  /** The dead deliveries, oldest first, at most `limit` (100 by default). */
  listDead(options?: { readonly limit?: number }): Promise<DeadDelivery[]>;
  /** Makes a dead delivery due again with a fresh retry schedule; `false` when no dead delivery has this id. */
  replay(deliveryId: string): Promise<boolean>;
  /**
   * Stops handing out deliveries (pending `take` calls resolve to `undefined`); leases still out may be
   * completed, retried or released. Idempotent.
   */
  close(): Promise<void>;
}
