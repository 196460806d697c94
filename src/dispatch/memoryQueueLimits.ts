import type { QueuedDelivery } from "./DeliveryQueue.js";
import { DispatchError } from "./DispatchError.js";
import type { DeadDeliveries } from "./memoryQueueDead.js";
import type { MemoryQueueLeases } from "./memoryQueueLeases.js";

/** A limit option of `createMemoryDeliveryQueue`: `fallback` when not given, else a whole number >= 1. */
export const positive = (name: string, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`createMemoryDeliveryQueue: ${name} must be a whole number >= 1`);
  }
  return value;
};

/** The caps of a memory queue, and the payload bytes they count: see {@link createMemoryQueueLimits}. */
export interface MemoryQueueLimits {
  /** Counts a delivery's payload: its event's bytes the first time, one more holder after. */
  hold(delivery: QueuedDelivery): void;
  /** Stops counting a delivery's payload: its event's bytes are freed with their last holder. */
  forget(delivery: QueuedDelivery): void;
  /**
   * Makes room for an `add` of `deliveries` (checked), or refuses it whole with
   * `ERR_DISPATCH_QUEUE_FULL`: past `maxDeliveries` waiting or leased, or past `maxBytes` of payload
   * even once the oldest dead deliveries are forgotten. Dead deliveries are forgotten only when that
   * makes enough room: a refused add forgets nothing.
   */
  makeRoom(deliveries: readonly QueuedDelivery[], leases: MemoryQueueLeases, dead: DeadDeliveries): void;
}

/**
 * Enforces the caps of a memory queue: at most `maxDeliveries` waiting or leased, and at most
 * `maxBytes` of payload (UTF-16 code units × 2, counted once per event: the deliveries of one
 * dispatch share one body string; dead deliveries included).
 */
export function createMemoryQueueLimits(maxDeliveries: number, maxBytes: number): MemoryQueueLimits {
  // Payload bytes by event: the deliveries of one dispatch share one body string.
  const events = new Map<string, { readonly bytes: number; refs: number }>();
  let bytes = 0;

  /** The payload bytes `deliveries` would add (bodies of events not held yet, once each). */
  const newBytes = (deliveries: readonly QueuedDelivery[], leases: MemoryQueueLeases): number => {
    const seen = new Set<string>();
    let sum = 0;
    for (const delivery of deliveries) {
      if (leases.has(delivery.id) || events.has(delivery.eventId) || seen.has(delivery.eventId)) continue;
      seen.add(delivery.eventId);
      sum += delivery.body.length * 2;
    }
    return sum;
  };

  return {
    hold(delivery) {
      const held = events.get(delivery.eventId);
      if (held !== undefined) {
        held.refs++;
        return;
      }
      const size = delivery.body.length * 2;
      events.set(delivery.eventId, { bytes: size, refs: 1 });
      bytes += size;
    },
    forget(delivery) {
      const held = events.get(delivery.eventId);
      if (held === undefined || --held.refs > 0) return;
      events.delete(delivery.eventId);
      bytes -= held.bytes;
    },
    makeRoom(deliveries, leases, dead) {
      const unknown = deliveries.filter((delivery) => !leases.has(delivery.id));
      const fresh = new Set(unknown.map(({ id }) => id)).size;
      if (leases.waiting + leases.leased + fresh > maxDeliveries) {
        throw new DispatchError(
          "ERR_DISPATCH_QUEUE_FULL",
          `the memory delivery queue holds its maximum of ${maxDeliveries} deliveries (maxDeliveries); nothing was added`,
        );
      }
      const adding = newBytes(deliveries, leases);
      const room = maxBytes - bytes - adding;
      // Forget dead deliveries only when forgetting them makes enough room: a refused add forgets nothing.
      if (room < 0 && dead.freeable((eventId) => events.get(eventId)) >= -room) {
        dead.drop(() => bytes + adding > maxBytes);
      }
      if (bytes + adding > maxBytes) {
        throw new DispatchError(
          "ERR_DISPATCH_QUEUE_FULL",
          `the memory delivery queue holds its maximum of ${maxBytes} payload bytes (maxBytes); nothing was added`,
        );
      }
    },
  };
}
