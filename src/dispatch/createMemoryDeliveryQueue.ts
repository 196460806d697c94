import { MAX_TIMER_MS } from "../internal/sleep.js";
import { checkQueuedDelivery } from "./checkQueuedDelivery.js";
import type {
  AttemptResponse,
  DeadDelivery,
  DeliveryLease,
  DeliveryQueue,
  QueuedDelivery,
} from "./DeliveryQueue.js";
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

interface Entry {
  readonly delivery: QueuedDelivery;
  attempts: number;
  state: "waiting" | "leased" | "dead";
  version: number;
  token: string;
  lockExpiresAt: number;
  reason: string;
  diedAt: number;
  lastResponse: AttemptResponse | undefined;
}

/** A copy of what the endpoint answered, if it is one (a queue stores only what it checked). */
function copyResponse(value: AttemptResponse | undefined): AttemptResponse | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { status, body } = value;
  if (typeof status !== "number" || typeof body !== "string") return undefined;
  // At most 1 KiB, never half a character (a surrogate pair is kept whole or left out).
  let end = Math.min(body.length, 1024);
  const last = body.charCodeAt(end - 1);
  if (end < body.length && last >= 0xd800 && last <= 0xdbff) end--;
  return { status, body: body.slice(0, end) };
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
  const maxDeliveries = positive("maxDeliveries", options.maxDeliveries, 50_000);
  const maxBytes = positive("maxBytes", options.maxBytes, 64 * 1024 * 1024);
  const now = options.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryDeliveryQueue: now must be a function");

  const entries = new Map<string, Entry>();
  // Leases in the order they were granted: with one lock duration, the first to expire comes first.
  const leased = new Map<string, Entry>();
  const dead = new Map<string, Entry>();
  const due = new DueHeap();
  let waiting = 0;
  // Payload bytes by event: the deliveries of one dispatch share one body string.
  const events = new Map<string, { readonly bytes: number; refs: number }>();
  let bytes = 0;
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
  const hold = (delivery: QueuedDelivery) => {
    const held = events.get(delivery.eventId);
    if (held !== undefined) {
      held.refs++;
      return;
    }
    const size = delivery.body.length * 2;
    events.set(delivery.eventId, { bytes: size, refs: 1 });
    bytes += size;
  };
  const forget = (entry: Entry) => {
    entries.delete(entry.delivery.id);
    const held = events.get(entry.delivery.eventId);
    if (held === undefined || --held.refs > 0) return;
    events.delete(entry.delivery.eventId);
    bytes -= held.bytes;
  };
  /** Forgets the oldest dead deliveries while `over()` says there are too many. */
  const dropDead = (over: () => boolean) => {
    for (const [id, oldest] of dead) {
      if (!over()) break;
      dead.delete(id);
      if (oldest.state === "dead") forget(oldest);
    }
  };
  /** The payload bytes forgetting every dead delivery would free (events held only by dead ones). */
  const freeableByDead = (): number => {
    const refs = new Map<string, number>();
    let sum = 0;
    for (const entry of dead.values()) {
      if (entry.state !== "dead") continue;
      const held = events.get(entry.delivery.eventId);
      if (held === undefined) continue;
      const left = (refs.get(entry.delivery.eventId) ?? held.refs) - 1;
      refs.set(entry.delivery.eventId, left);
      if (left === 0) sum += held.bytes;
    }
    return sum;
  };
  /** The payload bytes `deliveries` would add (bodies of events not held yet, once each). */
  const newBytes = (deliveries: readonly QueuedDelivery[]): number => {
    const seen = new Set<string>();
    let sum = 0;
    for (const delivery of deliveries) {
      if (entries.has(delivery.id) || events.has(delivery.eventId) || seen.has(delivery.eventId)) continue;
      seen.add(delivery.eventId);
      sum += delivery.body.length * 2;
    }
    return sum;
  };

  return {
    async add(deliveries) {
      if (closed) throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      if (!Array.isArray(deliveries)) throw new TypeError("add: pass an array of deliveries");
      const checked = deliveries.map((delivery) => checkQueuedDelivery(delivery, "add"));
      const fresh = new Set(checked.filter((delivery) => !entries.has(delivery.id)).map(({ id }) => id)).size;
      if (waiting + leased.size + fresh > maxDeliveries) {
        throw new DispatchError(
          "ERR_DISPATCH_QUEUE_FULL",
          `the memory delivery queue holds its maximum of ${maxDeliveries} deliveries (maxDeliveries); nothing was added`,
        );
      }
      const adding = newBytes(checked);
      const room = maxBytes - bytes - adding;
      // Forget dead deliveries only when forgetting them makes enough room: a refused add forgets nothing.
      if (room < 0 && freeableByDead() >= -room) dropDead(() => bytes + adding > maxBytes);
      if (bytes + adding > maxBytes) {
        throw new DispatchError(
          "ERR_DISPATCH_QUEUE_FULL",
          `the memory delivery queue holds its maximum of ${maxBytes} payload bytes (maxBytes); nothing was added`,
        );
      }
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
          lastResponse: undefined,
        };
        entries.set(delivery.id, entry);
        hold(delivery);
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
      forget(entry);
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
    async dead(value, reason, lastResponse) {
      const entry = owned(value);
      if (entry === undefined) return;
      release(entry);
      entry.attempts++;
      entry.state = "dead";
      entry.version++;
      entry.reason = typeof reason === "string" ? reason : "";
      entry.diedAt = now();
      entry.lastResponse = copyResponse(lastResponse);
      dead.set(entry.delivery.id, entry);
      dropDead(() => dead.size > maxDead);
      checkIdle();
    },
    async defer(value, dueAt) {
      if (typeof dueAt !== "number" || Number.isNaN(dueAt)) {
        throw new TypeError("defer: dueAt must be a time in epoch milliseconds");
      }
      const entry = owned(value);
      if (entry === undefined) return;
      release(entry);
      schedule(entry, dueAt);
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
          ...(entry.lastResponse === undefined ? {} : { lastResponse: entry.lastResponse }),
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
