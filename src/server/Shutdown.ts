import type { LeaseKeeper } from "../internal/leaseKeeper.js";
import type { CreateDeadline } from "./CreateDeadline.js";
import type { CreateSignal } from "./CreateSignal.js";
import type { IdempotencyRecordRef } from "./IdempotencyStore.js";

/** What a closing handler stops: the signal, and every create under way that read its signal. */
export interface Shutdown {
  readonly signal: AbortSignal;
  readonly creates: Set<CreateSignal>;
  /** Renews the lease of every create under way, with one timer. */
  readonly leases: LeaseKeeper<IdempotencyRecordRef>;
  /** The deadline of every create under way: a close past its bound expires them all. */
  readonly deadlines: Set<CreateDeadline>;
}
