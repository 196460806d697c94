import { checkQueuedDelivery } from "./checkQueuedDelivery.js";
import type { DeliveryQueue } from "./DeliveryQueue.js";
import { DispatchError } from "./DispatchError.js";
import { createDeadDeliveries } from "./memoryQueueDead.js";
import { createMemoryQueueLeases, type Entry } from "./memoryQueueLeases.js";
import { createMemoryQueueLimits, positive } from "./memoryQueueLimits.js";
import { createQueueWaiters } from "./memoryQueueWaiters.js";

/**
 * The options of {@link createMemoryDeliveryQueue}.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { MemoryDeliveryQueueOptions } from "messaging-events/dispatch";
 *
 * const options: MemoryDeliveryQueueOptions = { lockMs: 120_000, maxDead: 1_000 };
 * ```
 */
export interface MemoryDeliveryQueueOptions {
  /**
   * How long a lease is held before the delivery may be handed out again. Keep it longer than an
   * attempt can last (the dispatcher's `timeoutMs`, plus signing).
   * @default 60000
   */
  readonly lockMs?: number;
  /**
   * The most dead deliveries kept; past it, the oldest are forgotten.
   * @default 10000
   */
  readonly maxDead?: number;
  /**
   * The most deliveries waiting or leased at once; an `add` that would pass it is refused whole
   * with `ERR_DISPATCH_QUEUE_FULL` (so `dispatch` rejects, and nothing of it is stored).
   * @default 50000
   */
  readonly maxDeliveries?: number;
  /**
   * The most payload bytes held (UTF-16 code units × 2, counted once per dispatched event however
   * many endpoints it goes to; dead deliveries included). Room is made by forgetting the oldest
   * dead deliveries first; an `add` that still does not fit is refused whole with
   * `ERR_DISPATCH_QUEUE_FULL`.
   * @default 67108864 (64 MiB)
   */
  readonly maxBytes?: number;
  /**
   * The clock, in milliseconds since the epoch.
   * @default Date.now
   */
  readonly now?: () => number;
}

/**
 * A {@link DeliveryQueue} in this process's memory, with `idle()` to wait until nothing is left to
 * deliver: see {@link createMemoryDeliveryQueue}.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createMemoryDeliveryQueue, type MemoryDeliveryQueue } from "messaging-events/dispatch";
 *
 * const queue: MemoryDeliveryQueue = createMemoryDeliveryQueue();
 * await queue.idle(); // nothing queued: resolves at once
 * await queue.close();
 * ```
 */
export interface MemoryDeliveryQueue extends DeliveryQueue {
  /**
   * Resolves once no delivery is waiting or leased (dead ones aside). While a call waits, the queue's
   * retry timer keeps the process alive, so a script can `await queue.idle()` before it ends.
   */
  idle(): Promise<void>;
  /** How many deliveries are waiting (retries included), leased, and dead. */
  counts(): { readonly waiting: number; readonly leased: number; readonly dead: number };
}

/**
 * Creates a {@link DeliveryQueue} in this process's memory, the dispatcher's default. It serves one
 * process only, and **everything in it is lost when the process exits**: deliveries waiting for a
 * retry included. Use it for a single server that can afford that, for tests and demos; use the
 * BullMQ queue (`messaging-events/dispatch/bullmq`) when deliveries must survive a restart or be
 * shared by several processes.
 *
 * Its timers never keep the process alive on their own (they are `unref`ed where the runtime has
 * `unref`), except while someone awaits `idle()`. Dead deliveries are kept up to `maxDead`.
 * `close()` is idempotent: waiting `take` calls resolve to `undefined`, and leases still out can be
 * completed, retried or released.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createMemoryDeliveryQueue, createWebhookDispatcher } from "messaging-events/dispatch";
 *
 * const queue = createMemoryDeliveryQueue({ maxDead: 1_000 });
 * const dispatcher = createWebhookDispatcher({ endpoints: [], queue });
 * await dispatcher.close();
 * await queue.close();
 * ```
 */
export function createMemoryDeliveryQueue(options: MemoryDeliveryQueueOptions = {}): MemoryDeliveryQueue {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createMemoryDeliveryQueue: options must be an object");
  }
  const lockMs = positive("lockMs", options.lockMs, 60_000);
  const maxDead = positive("maxDead", options.maxDead, 10_000);
  const maxDeliveries = positive("maxDeliveries", options.maxDeliveries, 50_000);
  const maxBytes = positive("maxBytes", options.maxBytes, 64 * 1024 * 1024);
  const now = options.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryDeliveryQueue: now must be a function");

  let closed = false;
  const waiters = createQueueWaiters(
    now,
    () => closed,
    () => leases.nextAt(),
  );
  const leases = createMemoryQueueLeases(lockMs, () => waiters.wakeTakers());
  const limits = createMemoryQueueLimits(maxDeliveries, maxBytes);
  /** Stops holding an entry, and its share of its event's payload. */
  const forget = (entry: Entry) => {
    leases.forget(entry);
    limits.forget(entry.delivery);
  };
  const dead = createDeadDeliveries(maxDead, forget);
  /** Lets the `idle` calls go once nothing is waiting or leased. */
  const checkIdle = () => waiters.checkIdle(leases.waiting > 0 || leases.leased > 0);

  return {
    async add(deliveries) {
      if (closed) throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      if (!Array.isArray(deliveries)) throw new TypeError("add: pass an array of deliveries");
      const checked = deliveries.map((delivery) => checkQueuedDelivery(delivery, "add"));
      limits.makeRoom(checked, leases, dead);
      const at = now();
      for (const delivery of checked) {
        if (leases.has(delivery.id)) continue;
        const entry = leases.add(delivery);
        limits.hold(delivery);
        leases.schedule(entry, at);
      }
    },
    async take({ signal } = {}) {
      for (;;) {
        if (closed || signal?.aborted) return undefined;
        const taken = leases.take(now());
        if (taken !== undefined) return taken;
        await waiters.waitToTake(signal);
      }
    },
    async complete(value) {
      const entry = leases.owned(value);
      if (entry === undefined) return;
      leases.release(entry);
      forget(entry);
      checkIdle();
    },
    async retry(value, retryAt, reason) {
      if (typeof retryAt !== "number" || Number.isNaN(retryAt)) {
        throw new TypeError("retry: retryAt must be a time in epoch milliseconds");
      }
      const entry = leases.owned(value);
      if (entry === undefined) return;
      leases.release(entry);
      entry.attempts++;
      entry.reason = typeof reason === "string" ? reason : "";
      leases.schedule(entry, retryAt);
    },
    async dead(value, reason, lastResponse) {
      const entry = leases.owned(value);
      if (entry === undefined) return;
      leases.release(entry);
      entry.attempts++;
      dead.add(entry, reason, now(), lastResponse);
      checkIdle();
    },
    async defer(value, dueAt) {
      if (typeof dueAt !== "number" || Number.isNaN(dueAt)) {
        throw new TypeError("defer: dueAt must be a time in epoch milliseconds");
      }
      const entry = leases.owned(value);
      if (entry === undefined) return;
      leases.release(entry);
      leases.schedule(entry, dueAt);
    },
    async release(value) {
      const entry = leases.owned(value);
      if (entry === undefined) return;
      leases.release(entry);
      leases.schedule(entry, now());
    },
    async listDead(listOptions) {
      const limit = listOptions?.limit ?? 100;
      if (typeof limit !== "number" || !(limit >= 0))
        throw new TypeError("listDead: limit must be a number >= 0");
      return dead.list(limit);
    },
    async replay(deliveryId) {
      if (closed) throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      const entry = typeof deliveryId === "string" ? dead.replay(deliveryId) : undefined;
      if (entry === undefined) return false;
      entry.attempts = 0;
      leases.schedule(entry, now());
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      waiters.close();
    },
    idle() {
      return waiters.untilIdle(closed || (leases.waiting === 0 && leases.leased === 0));
    },
    counts() {
      return { waiting: leases.waiting, leased: leases.leased, dead: dead.size };
    },
  };
}
