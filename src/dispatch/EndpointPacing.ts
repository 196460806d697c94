import { MAX_ENDPOINTS } from "./checkEndpoints.js";
import type { DeliveryLease } from "./DeliveryQueue.js";

/**
 * The pace of each endpoint in one dispatcher: the leases parked for an endpoint's next free slot
 * (so a busy endpoint's pipeline stays full without holding a worker), when its attempts in flight
 * started, and how long its attempts take (smoothed), from which a busy endpoint's deliveries learn
 * how long to wait in the queue before they are taken again.
 */
export class EndpointPacing {
  // Leases waiting for a slot of their endpoint, by endpoint.
  readonly #parked = new Map<string, DeliveryLease[]>();
  #parkedCount = 0;
  // When each attempt in flight started, by endpoint: how long a busy endpoint has been busy.
  readonly #running = new Map<string, number[]>();
  // How long attempts to each endpoint take, smoothed; most recently used last.
  readonly #durations = new Map<string, number>();

  /**
   * @param workers the dispatcher's concurrency: an endpoint may have ten times as many leases
   *   parked, all endpoints together a hundred times as many.
   * @param timeoutMs the time-out of one attempt: the longest wait asked of a busy endpoint's
   *   deliveries, and the least lock a parked lease must have left to be attempted.
   */
  constructor(
    private readonly workers: number,
    private readonly timeoutMs: number,
  ) {}

  /** Notes that an attempt to `endpointId` started at `at`. */
  started(endpointId: string, at: number): void {
    const since = this.#running.get(endpointId) ?? [];
    since.push(at);
    this.#running.set(endpointId, since);
  }

  /** Notes that the attempt started at `startedAt` ended, and how long it took. */
  stopped(endpointId: string, startedAt: number): void {
    const took = Math.max(0, Date.now() - startedAt);
    const smoothed = this.#durations.get(endpointId);
    // Endpoints no longer attempted fall out past the most a list may hold.
    this.#durations.delete(endpointId);
    this.#durations.set(endpointId, smoothed === undefined ? took : smoothed * 0.8 + took * 0.2);
    if (this.#durations.size > MAX_ENDPOINTS) {
      this.#durations.delete(this.#durations.keys().next().value as string);
    }
    const since = this.#running.get(endpointId);
    const index = since?.indexOf(startedAt) ?? -1;
    if (since === undefined || index < 0) return;
    since.splice(index, 1);
    if (since.length === 0) this.#running.delete(endpointId);
  }

  /**
   * How long a delivery for a busy endpoint (`limit` attempts at once) waits in the queue before it
   * is taken again: about as long as the deliveries parked ahead of it take at the endpoint's pace,
   * and at least as long as its oldest attempt has been running (a hanging endpoint is asked again
   * only after as long); from 5 ms to `timeoutMs`.
   */
  busyFor(endpointId: string, limit: number): number {
    const oldest = this.#running.get(endpointId)?.[0];
    const runningMs = oldest === undefined ? 0 : Date.now() - oldest;
    const ahead = ((this.#parked.get(endpointId)?.length ?? 0) + 1) / limit;
    const paced = ahead * (this.#durations.get(endpointId) ?? 0);
    return Math.min(this.timeoutMs, Math.max(5, runningMs, Math.ceil(paced)));
  }

  /** Parks a lease until a slot of its endpoint frees; `false` when as many are parked as allowed. */
  park(endpointId: string, lease: DeliveryLease): boolean {
    const waiting = this.#parked.get(endpointId) ?? [];
    if (waiting.length >= this.workers * 10 || this.#parkedCount >= this.workers * 100) return false;
    waiting.push(lease);
    this.#parked.set(endpointId, waiting);
    this.#parkedCount++;
    return true;
  }

  /**
   * The next parked lease of an endpoint whose lock still outlasts an attempt; one that waited too
   * long is handed to `tooLate` (to go back to the queue).
   */
  unpark(endpointId: string, tooLate: (lease: DeliveryLease) => void): DeliveryLease | undefined {
    const waiting = this.#parked.get(endpointId);
    for (let lease = waiting?.shift(); lease !== undefined; lease = waiting?.shift()) {
      this.#parkedCount--;
      if (lease.lockExpiresAt - Date.now() > this.timeoutMs + 1_000) {
        if (waiting?.length === 0) this.#parked.delete(endpointId);
        return lease;
      }
      tooLate(lease);
    }
    this.#parked.delete(endpointId);
    return undefined;
  }

  /** Every parked lease, taken out (a closing dispatcher gives them back to the queue). */
  drain(): DeliveryLease[] {
    const all = [...this.#parked.values()].flat();
    this.#parked.clear();
    this.#parkedCount = 0;
    return all;
  }
}
