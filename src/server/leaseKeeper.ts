import type { IdempotencyRecordRef } from "./IdempotencyStore.js";

/** One claim under way: renewed while its create runs, and told when the claim is lost. */
interface Lease {
  readonly ref: IdempotencyRecordRef;
  readonly onLost: () => void;
  renewedAt: number;
  renewing: boolean;
}

/**
 * Keeps the leases of every create under way alive with one timer for the whole handler, instead of
 * a timer per request: the timer runs only while some create is under way, and renews each lease
 * once a third of the lease has passed since its last renewal.
 */
export class LeaseKeeper {
  readonly #leases = new Set<Lease>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly leaseMs: number,
    private readonly extend: (ref: IdempotencyRecordRef) => Promise<boolean>,
  ) {}

  /** Starts renewing `ref`; `onLost` runs if the store says the claim is no longer held. Returns the stop. */
  keep(ref: IdempotencyRecordRef, onLost: () => void): () => void {
    const lease: Lease = { ref, onLost, renewedAt: Date.now(), renewing: false };
    this.#leases.add(lease);
    if (this.#timer === undefined) {
      const interval = Math.max(1, Math.floor(this.leaseMs / 3));
      this.#timer = setInterval(() => this.#renew(interval), Math.max(1, Math.floor(interval / 2)));
    }
    return () => {
      this.#leases.delete(lease);
      if (this.#leases.size === 0 && this.#timer !== undefined) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  #renew(interval: number): void {
    const now = Date.now();
    for (const lease of this.#leases) {
      if (lease.renewing || now - lease.renewedAt < interval) continue;
      lease.renewing = true;
      this.extend(lease.ref)
        .then((held) => {
          lease.renewedAt = Date.now();
          if (!held) lease.onLost();
        })
        // A store that fails now may answer the next renewal; the lease covers the gap.
        .catch(() => undefined)
        .finally(() => {
          lease.renewing = false;
        });
    }
  }
}
