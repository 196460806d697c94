/** One claim under way: renewed while its create runs, and told when the claim is lost. */
interface Lease<Ref> {
  readonly ref: Ref;
  readonly onLost: () => void;
  renewedAt: number;
  renewing: boolean;
  /** Where it is in the keeper's list; -1 once let go. */
  index: number;
}

/** A timer that can stop holding the process open (Node, Bun); Deno and browsers give a number. */
interface Unrefable {
  ref(): unknown;
  unref(): unknown;
}

const canUnref = (timer: unknown): timer is Unrefable =>
  typeof timer === "object" &&
  timer !== null &&
  typeof (timer as Partial<Unrefable>).ref === "function" &&
  typeof (timer as Partial<Unrefable>).unref === "function";

/**
 * Keeps the leases of every claim under way (a create, a webhook handler) alive with one timer for
 * the whole handler, instead of a timer per request: the timer holds the process open only while some create is under way, and
 * renews each lease once a third of the lease has passed since its last renewal.
 *
 * Most creates finish long before a renewal is due, so a request should not pay for a timer of its
 * own: when the last lease is let go, the timer stays (no longer holding the process open, where
 * the runtime's timers can say so) until its next tick finds nothing to keep, and a request that
 * comes before that only marks it as holding again.
 */
export class LeaseKeeper<Ref> {
  /** The leases kept, in no order (one is let go by moving the last into its place). */
  readonly #leases: Lease<Ref>[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Whether the timer runs with no lease to keep (and no longer holds the process open). */
  #idle = false;

  constructor(
    private readonly leaseMs: number,
    private readonly extend: (ref: Ref) => Promise<boolean>,
  ) {}

  /** Starts renewing `ref`; `onLost` runs if the store says the claim is no longer held. Returns the stop. */
  keep(ref: Ref, onLost: () => void): () => void {
    const lease: Lease<Ref> = {
      ref,
      onLost,
      renewedAt: Date.now(),
      renewing: false,
      index: this.#leases.length,
    };
    this.#leases.push(lease);
    if (this.#timer === undefined) {
      const interval = Math.max(1, Math.floor(this.leaseMs / 3));
      this.#timer = setInterval(() => this.#renew(interval), Math.max(1, Math.floor(interval / 2)));
    } else if (this.#idle) {
      this.#idle = false;
      (this.#timer as unknown as Unrefable).ref();
    }
    return () => {
      if (lease.index < 0) return;
      const last = this.#leases.pop()!;
      if (last !== lease) {
        this.#leases[lease.index] = last;
        last.index = lease.index;
      }
      lease.index = -1;
      if (this.#leases.length === 0 && this.#timer !== undefined && !this.#idle) {
        if (canUnref(this.#timer)) {
          this.#idle = true;
          this.#timer.unref();
        } else this.stop();
      }
    };
  }

  /** Stops the timer (the handler closing). Leases kept after this start it again. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#idle = false;
  }

  #renew(interval: number): void {
    if (this.#leases.length === 0) {
      this.stop();
      return;
    }
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
