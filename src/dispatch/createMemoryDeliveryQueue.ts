import { MAX_TIMER_MS } from "../internal/sleep.js";
import { checkQueuedDelivery } from "./checkQueuedDelivery.js";
import type { DeadDelivery, DeliveryLease, DeliveryQueue, QueuedDelivery } from "./DeliveryQueue.js";
import { DispatchError } from "./DispatchError.js";
import { DueHeap } from "./dueHeap.js";

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

interface Entry {
  readonly delivery: QueuedDelivery;
  attempts: number;
  state: "waiting" | "leased" | "dead";
  version: number;
  token: string;
  lockExpiresAt: number;
  reason: string;
  diedAt: number;
}

const positive = (name: string, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`createMemoryDeliveryQueue: ${name} must be a whole number >= 1`);
  }
  return value;
};

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
  const now = options.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryDeliveryQueue: now must be a function");

  const entries = new Map<string, Entry>();
  // Leases in the order they were granted: with one lock duration, the first to expire comes first.
  const leased = new Map<string, Entry>();
  const dead = new Map<string, Entry>();
  const due = new DueHeap();
  let waiting = 0;
  let takers = new Set<() => void>();
  let idlers: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let timerHeld = false;
  let closed = false;
  let sequence = 0;

  const wakeTakers = () => {
    const woken = takers;
    takers = new Set();
    for (const wake of woken) wake();
  };
  const checkIdle = () => {
    if (waiting > 0 || leased.size > 0 || idlers.length === 0) return;
    const done = idlers;
    idlers = [];
    for (const resolve of done) resolve();
    // Nobody waits for idle any more: the timer must not keep the process alive.
    if (timer !== undefined && timerHeld) rearm(true);
  };
  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
  };
  /** Arms the timer for the next due time, if anyone is waiting to take. */
  const rearm = (force = false) => {
    if (closed || takers.size === 0) {
      clearTimer();
      return;
    }
    const nextDue = due.peek()?.at ?? Number.POSITIVE_INFINITY;
    const nextExpiry = leased.values().next().value?.lockExpiresAt ?? Number.POSITIVE_INFINITY;
    const at = Math.min(nextDue, nextExpiry);
    if (at === Number.POSITIVE_INFINITY) {
      clearTimer();
      return;
    }
    if (!force && timer !== undefined && timerAt <= at) return;
    clearTimer();
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        wakeTakers();
      },
      Math.min(Math.max(0, at - now()), MAX_TIMER_MS),
    );
    timerHeld = idlers.length > 0;
    if (!timerHeld) (timer as unknown as { unref?: () => void }).unref?.();
  };
  const schedule = (entry: Entry, at: number) => {
    entry.state = "waiting";
    entry.version++;
    waiting++;
    due.push({ at, id: entry.delivery.id, version: entry.version });
    wakeTakers();
  };
  const lease = (entry: Entry, at: number): DeliveryLease => {
    entry.state = "leased";
    entry.version++;
    entry.token = `${++sequence}`;
    entry.lockExpiresAt = at + lockMs;
    leased.delete(entry.delivery.id);
    leased.set(entry.delivery.id, entry);
    return {
      delivery: entry.delivery,
      attempts: entry.attempts,
      token: entry.token,
      lockExpiresAt: entry.lockExpiresAt,
    };
  };
  const tryTake = (): DeliveryLease | undefined => {
    const at = now();
    // A lease whose lock expired (its worker is stuck or gone) is handed out again.
    const oldest = leased.values().next().value;
    if (oldest !== undefined && oldest.lockExpiresAt <= at) return lease(oldest, at);
    for (let top = due.peek(); top !== undefined && top.at <= at; top = due.peek()) {
      due.pop();
      const entry = entries.get(top.id);
      if (entry === undefined || entry.version !== top.version || entry.state !== "waiting") continue;
      waiting--;
      return lease(entry, at);
    }
    return undefined;
  };
  /** The entry a lease still owns, or `undefined` for a stale or foreign lease. */
  const owned = (value: DeliveryLease): Entry | undefined => {
    if (typeof value !== "object" || value === null) return undefined;
    const entry = entries.get(value.delivery?.id);
    return entry !== undefined && entry.state === "leased" && entry.token === value.token ? entry : undefined;
  };
  const release = (entry: Entry) => {
    leased.delete(entry.delivery.id);
  };

  return {
    async add(deliveries) {
      if (closed) throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      if (!Array.isArray(deliveries)) throw new TypeError("add: pass an array of deliveries");
      const checked = deliveries.map((delivery) => checkQueuedDelivery(delivery, "add"));
      const at = now();
      for (const delivery of checked) {
        if (entries.has(delivery.id)) continue;
        const entry: Entry = {
          delivery,
          attempts: 0,
          state: "waiting",
          version: 0,
          token: "",
          lockExpiresAt: 0,
          reason: "",
          diedAt: 0,
        };
        entries.set(delivery.id, entry);
        schedule(entry, at);
      }
    },
    async take({ signal } = {}) {
      for (;;) {
        if (closed || signal?.aborted) return undefined;
        const taken = tryTake();
        if (taken !== undefined) return taken;
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          };
          const onAbort = () => {
            takers.delete(wake);
            resolve();
          };
          takers.add(wake);
          signal?.addEventListener("abort", onAbort, { once: true });
          rearm();
        });
      }
    },
    async complete(value) {
      const entry = owned(value);
      if (entry === undefined) return;
      release(entry);
      entries.delete(entry.delivery.id);
      checkIdle();
    },
    async retry(value, retryAt, reason) {
      if (typeof retryAt !== "number" || Number.isNaN(retryAt)) {
        throw new TypeError("retry: retryAt must be a time in epoch milliseconds");
      }
      const entry = owned(value);
      if (entry === undefined) return;
      release(entry);
      entry.attempts++;
      entry.reason = typeof reason === "string" ? reason : "";
      schedule(entry, retryAt);
    },
    async dead(value, reason) {
      const entry = owned(value);
      if (entry === undefined) return;
      release(entry);
      entry.attempts++;
      entry.state = "dead";
      entry.version++;
      entry.reason = typeof reason === "string" ? reason : "";
      entry.diedAt = now();
      dead.set(entry.delivery.id, entry);
      for (const [id, oldest] of dead) {
        if (dead.size <= maxDead) break;
        dead.delete(id);
        if (oldest.state === "dead") entries.delete(id);
      }
      checkIdle();
    },
    async release(value) {
      const entry = owned(value);
      if (entry === undefined) return;
      release(entry);
      schedule(entry, now());
    },
    async listDead(listOptions) {
      const limit = listOptions?.limit ?? 100;
      if (typeof limit !== "number" || !(limit >= 0))
        throw new TypeError("listDead: limit must be a number >= 0");
      const list: DeadDelivery[] = [];
      for (const entry of dead.values()) {
        if (list.length >= limit) break;
        list.push({
          ...entry.delivery,
          attempts: entry.attempts,
          reason: entry.reason,
          diedAt: entry.diedAt,
        });
      }
      return list;
    },
    async replay(deliveryId) {
      if (closed) throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      const entry = typeof deliveryId === "string" ? dead.get(deliveryId) : undefined;
      if (entry === undefined) return false;
      dead.delete(deliveryId);
      entry.attempts = 0;
      schedule(entry, now());
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimer();
      wakeTakers();
      // Nothing more will be delivered: whoever waits for the queue to be idle may go on.
      const done = idlers;
      idlers = [];
      for (const resolve of done) resolve();
    },
    idle() {
      if (closed || (waiting === 0 && leased.size === 0)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idlers.push(resolve);
        // Hold the process open while someone waits: re-arm the timer as a referenced one.
        if (timer !== undefined && !timerHeld) rearm(true);
      });
    },
    counts() {
      return { waiting, leased: leased.size, dead: dead.size };
    },
  };
}
