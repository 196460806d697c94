import type { AttemptResponse, DeadDelivery } from "./DeliveryQueue.js";
import type { Entry } from "./memoryQueueLeases.js";

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

/** The dead deliveries of a memory queue: see {@link createDeadDeliveries}. */
export interface DeadDeliveries {
  /** How many dead deliveries are kept. */
  readonly size: number;
  /**
   * Keeps an entry whose lease just ended as dead, with why, when (epoch ms) and what the endpoint
   * last answered; then forgets the oldest past `maxDead`.
   */
  add(entry: Entry, reason: string, diedAt: number, lastResponse: AttemptResponse | undefined): void;
  /** Forgets the oldest dead deliveries while `over()` says there are too many. */
  drop(over: () => boolean): void;
  /**
   * The payload bytes forgetting every dead delivery would free (events held only by dead ones),
   * given what is held of each event: its bytes, and how many deliveries share them.
   */
  freeable(held: (eventId: string) => { readonly bytes: number; readonly refs: number } | undefined): number;
  /** The dead deliveries, oldest first, at most `limit`. */
  list(limit: number): DeadDelivery[];
  /** Takes a dead delivery out to be replayed: its entry, or `undefined` when there is no such delivery. */
  replay(deliveryId: string): Entry | undefined;
}

/**
 * Keeps the dead deliveries of a memory queue, oldest first: up to `maxDead` (past it, the oldest
 * are forgotten, with `forget`), listed, and taken out again for replay.
 */
export function createDeadDeliveries(maxDead: number, forget: (entry: Entry) => void): DeadDeliveries {
  const dead = new Map<string, Entry>();

  /** Forgets the oldest dead deliveries while `over()` says there are too many. */
  const dropDead = (over: () => boolean) => {
    for (const [id, oldest] of dead) {
      if (!over()) break;
      dead.delete(id);
      if (oldest.state === "dead") forget(oldest);
    }
  };

  return {
    get size() {
      return dead.size;
    },
    add(entry, reason, diedAt, lastResponse) {
      entry.state = "dead";
      entry.version++;
      entry.reason = typeof reason === "string" ? reason : "";
      entry.diedAt = diedAt;
      entry.lastResponse = copyResponse(lastResponse);
      dead.set(entry.delivery.id, entry);
      dropDead(() => dead.size > maxDead);
    },
    drop: dropDead,
    freeable(held) {
      const refs = new Map<string, number>();
      let sum = 0;
      for (const entry of dead.values()) {
        if (entry.state !== "dead") continue;
        const event = held(entry.delivery.eventId);
        if (event === undefined) continue;
        const left = (refs.get(entry.delivery.eventId) ?? event.refs) - 1;
        refs.set(entry.delivery.eventId, left);
        if (left === 0) sum += event.bytes;
      }
      return sum;
    },
    list(limit) {
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
    replay(deliveryId) {
      const entry = dead.get(deliveryId);
      if (entry === undefined) return undefined;
      dead.delete(deliveryId);
      return entry;
    },
  };
}
