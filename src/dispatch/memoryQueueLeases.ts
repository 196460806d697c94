import type { AttemptResponse, DeliveryLease, QueuedDelivery } from "./DeliveryQueue.js";
import { DueHeap } from "./dueHeap.js";

/** One delivery held by a memory queue, waiting, leased or dead, with what its attempts left. */
export interface Entry {
  readonly delivery: QueuedDelivery;
  attempts: number;
  state: "waiting" | "leased" | "dead";
  /** Bumped on every change of state: the due times pushed before it are stale. */
  version: number;
  /** The token of its current lease. */
  token: string;
  lockExpiresAt: number;
  reason: string;
  diedAt: number;
  lastResponse: AttemptResponse | undefined;
}

/** The lease bookkeeping of a memory queue: see {@link createMemoryQueueLeases}. */
export interface MemoryQueueLeases {
  /** How many deliveries are waiting (retries included). */
  readonly waiting: number;
  /** How many deliveries are leased. */
  readonly leased: number;
  /** Whether a delivery with this id is held (dead ones included). */
  has(deliveryId: string): boolean;
  /** Holds a new delivery, never attempted; it is not due until it is scheduled. */
  add(delivery: QueuedDelivery): Entry;
  /** Makes an entry wait until `at` (epoch ms), then tells whoever waits to take. */
  schedule(entry: Entry, at: number): void;
  /**
   * A lease on the next delivery at `at` (epoch ms): one whose lock expired first, else the earliest
   * waiting one that is due; `undefined` when there is none.
   */
  take(at: number): DeliveryLease | undefined;
  /** The entry a lease still owns, or `undefined` for a stale or foreign lease. */
  owned(value: DeliveryLease): Entry | undefined;
  /** Ends an entry's lease (before it is completed, retried, deferred, released or dead). */
  release(entry: Entry): void;
  /** Stops holding an entry (delivered, or dead and dropped). */
  forget(entry: Entry): void;
  /** When a taker should look again: the next due time or lock expiry (epoch ms; `Infinity` for none). */
  nextAt(): number;
}

/**
 * Keeps the leases of a memory queue: every delivery it holds, by id; the waiting ones by due time;
 * the leased ones in the order their leases were granted; and the token that tells a lease still
 * owned from a stale one. A lease is held for `lockMs`; `onScheduled` is called each time a delivery
 * is made to wait.
 */
export function createMemoryQueueLeases(lockMs: number, onScheduled: () => void): MemoryQueueLeases {
  const entries = new Map<string, Entry>();
  // Leases in the order they were granted: with one lock duration, the first to expire comes first.
  const leased = new Map<string, Entry>();
  const due = new DueHeap();
  let waiting = 0;
  let sequence = 0;

  /** Leases an entry at `at` (epoch ms), with a fresh token, until `at + lockMs`. */
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

  return {
    get waiting() {
      return waiting;
    },
    get leased() {
      return leased.size;
    },
    has: (deliveryId) => entries.has(deliveryId),
    add(delivery) {
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
      return entry;
    },
    schedule(entry, at) {
      entry.state = "waiting";
      entry.version++;
      waiting++;
      due.push({ at, id: entry.delivery.id, version: entry.version });
      onScheduled();
    },
    take(at) {
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
    },
    owned(value) {
      if (typeof value !== "object" || value === null) return undefined;
      const entry = entries.get(value.delivery?.id);
      return entry !== undefined && entry.state === "leased" && entry.token === value.token
        ? entry
        : undefined;
    },
    release(entry) {
      leased.delete(entry.delivery.id);
    },
    forget(entry) {
      entries.delete(entry.delivery.id);
    },
    nextAt() {
      const nextDue = due.peek()?.at ?? Number.POSITIVE_INFINITY;
      const nextExpiry = leased.values().next().value?.lockExpiresAt ?? Number.POSITIVE_INFINITY;
      return Math.min(nextDue, nextExpiry);
    },
  };
}
