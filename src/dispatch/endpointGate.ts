import { callHook } from "../internal/callHook.js";

/** Per-endpoint limits, all optional. */
export interface EndpointLimits {
  /**
   * At most this many attempts in flight to the endpoint at once (in this process). Below 1 counts
   * as 1; `Infinity` (or `NaN`) is no limit.
   */
  readonly concurrency: number;
  /**
   * At most this many attempts started per second: a token bucket refilled continuously, holding up
   * to `max(1, ceil(ratePerSecond))` tokens. `undefined`, or anything but a positive finite number, is
   * no limit.
   */
  readonly ratePerSecond: number | undefined;
}

/** The circuit breaker's settings (checked when the gate is created). */
export interface CircuitBreakerSettings {
  /** Consecutive failed attempts that open the circuit; at least 1. */
  readonly failureThreshold: number;
  /**
   * How long the circuit stays open the first time before a half-open probe (ms, above 0); doubles on
   * each failed probe up to `maxOpenMs`.
   */
  readonly openMs: number;
  /** The longest the circuit stays open (ms, finite, at least `openMs`). */
  readonly maxOpenMs: number;
}

/**
 * The state of an endpoint's circuit: `closed` admits attempts, `open` refuses them until its reopen
 * time, `half-open` has one probe in flight that decides which of the two comes next.
 */
export type CircuitState = "closed" | "open" | "half-open";

/**
 * What {@link EndpointGate.admit} answers: a ticket for the attempt, or when to ask again (epoch ms,
 * never before the `now` asked about) and why.
 */
export type GateVerdict =
  | { readonly admitted: true; readonly ticket: GateTicket }
  | {
      readonly admitted: false;
      readonly retryAt: number;
      readonly why: "concurrency" | "rate" | "circuit-open";
    };

/** One admitted attempt, held until it ends. */
export interface GateTicket {
  /**
   * Ends the attempt: frees its slot and feeds the circuit breaker. Idempotent (a second call does
   * nothing). Call it exactly once per admitted attempt: a ticket never finished holds its slot, and
   * a probe never finished keeps the circuit half-open.
   */
  finish(outcome: "success" | "failure"): void;
}

/** Decides, per endpoint, whether an attempt may start now: see {@link createEndpointGate}. */
export interface EndpointGate {
  /** Admits an attempt to `endpointId` at `now` (epoch ms), or says when to ask again. */
  admit(endpointId: string, limits: EndpointLimits, now: number): GateVerdict;
  /**
   * The circuit state of an endpoint ("closed" for one never seen). Transitions are lazy: an open
   * circuit past its reopen time stays "open" until the next `admit`.
   */
  state(endpointId: string): CircuitState;
  /**
   * Forgets an endpoint's state (the dispatcher calls it when an endpoint is enabled again or
   * removed); a circuit that was not closed is reported closed. Tickets issued before then free
   * nothing and count for nothing.
   */
  forget(endpointId: string): void;
  /** How many endpoints have state kept: for tests and diagnostics. */
  size(): number;
}

/** The options of {@link createEndpointGate}. */
export interface EndpointGateOptions {
  /** The circuit breaker's settings; `undefined` for no circuit breaker. */
  readonly breaker: CircuitBreakerSettings | undefined;
  /**
   * Called on every circuit transition: `("open", reopensAt)`, `("half-open", undefined)`,
   * `("closed", undefined)`. What it throws or rejects with is dropped.
   */
  readonly onCircuitChange?: (endpointId: string, state: CircuitState, reopensAt: number | undefined) => void;
  /**
   * The clock `finish` reads to time transitions and refill buckets (epoch ms): the clock of the
   * `now` passed to `admit`.
   * @default Date.now
   */
  readonly now?: () => number;
}

/**
 * How long `admit` asks a caller to wait when the endpoint has no free slot: nothing tells when one
 * will free.
 */
export const CONCURRENCY_RETRY_MS = 250;

/** The longest wait asked for while a half-open circuit's probe is in flight. */
const PROBE_RETRY_MAX_MS = 1_000;

/** Float slack, so that the token due at a rate refusal's `retryAt` is there at `retryAt`. */
const TOKEN_SLACK = 1e-9;

/** Entries looked at per `admit` to drop idle state: more than the one `admit` may add. */
const SWEEP_STEPS = 2;

interface Bucket {
  rate: number;
  tokens: number;
  /** When `tokens` was counted. */
  at: number;
}

interface EndpointState {
  inFlight: number;
  bucket: Bucket | undefined;
  circuit: CircuitState;
  /** Consecutive failures while closed. */
  failures: number;
  /** How long the circuit stays open this time (or the next, while closed). */
  openMs: number;
  reopensAt: number;
  /** Bumped on every transition: only tickets issued in the current closed period count. */
  period: number;
  probe: GateTicket | undefined;
}

const capacity = (rate: number): number => Math.max(1, Math.ceil(rate));

/** Brings a bucket's count up to `now`; a clock that went back refills nothing and counts from `now`. */
function refill(bucket: Bucket, rate: number, now: number): void {
  const elapsed = Math.max(0, now - bucket.at);
  bucket.tokens = Math.min(capacity(rate), bucket.tokens + (elapsed * rate) / 1000);
  bucket.rate = rate;
  bucket.at = now;
}

/** State that says nothing a fresh one would not: safe to drop. */
function idle(state: EndpointState, now: number): boolean {
  if (state.circuit !== "closed" || state.inFlight > 0 || state.failures > 0) return false;
  const { bucket } = state;
  if (bucket === undefined) return true;
  refill(bucket, bucket.rate, now);
  return bucket.tokens + TOKEN_SLACK >= capacity(bucket.rate);
}

function checkBreaker(breaker: CircuitBreakerSettings): void {
  const fail = (message: string): never => {
    throw new TypeError(`createEndpointGate: ${message}`);
  };
  const { failureThreshold, openMs, maxOpenMs } = breaker;
  if (!(failureThreshold >= 1 && failureThreshold < Infinity)) fail("failureThreshold must be at least 1");
  if (!(openMs > 0 && openMs < Infinity)) fail("openMs must be a finite number of ms above 0");
  if (!(maxOpenMs >= openMs && maxOpenMs < Infinity)) fail("maxOpenMs must be finite and at least openMs");
}

/**
 * Creates a per-endpoint gate for the dispatcher's workers: before an attempt, `admit` checks the
 * endpoint's circuit breaker, then its concurrency, then its rate, and either hands out a ticket
 * (taking a slot and a token) or says when to ask again. Pure apart from the clock passed in: no
 * timers, no I/O.
 *
 * - Concurrency: refused while `limits.concurrency` tickets are unfinished; ask again after
 *   {@link CONCURRENCY_RETRY_MS}.
 * - Rate: refused when the bucket has no token; ask again when the next one is there (rounded up to
 *   the millisecond).
 * - Circuit breaker: `failureThreshold` consecutive failures open it for `openMs`; the first admit at
 *   or after its reopen time is the one probe of a half-open circuit (if concurrency and rate admit it;
 *   otherwise the circuit stays open and that refusal is returned). A probe's success closes it; a
 *   failure opens it again for twice as long, up to `maxOpenMs`. While a probe is in flight, others
 *   are refused until `now + min(openMs, 1 s)`.
 * - Attempts in flight when the circuit left closed count for nothing: their success cannot close it,
 *   their failure adds nothing; only the probe decides. The same holds after it closes again.
 * - Clocks may go back: a reopen time or a token count is rebased on the earlier `now`, so no wait is
 *   longer than the circuit's open duration or the token's refill time.
 * - Memory: an endpoint's state is dropped once it says nothing a fresh one would not (closed, no
 *   ticket out, no failure counted, a full bucket): when its last ticket finishes, or later by a sweep
 *   of a couple of entries on each `admit`.
 *
 * Throws a `TypeError` for breaker settings out of range.
 */
export function createEndpointGate(options: EndpointGateOptions): EndpointGate {
  const { breaker, onCircuitChange } = options;
  const clock = options.now ?? Date.now;
  if (breaker !== undefined) checkBreaker(breaker);
  const states = new Map<string, EndpointState>();
  let sweeper: Iterator<[string, EndpointState]> | undefined;

  const notify = (endpointId: string, circuit: CircuitState, reopensAt: number | undefined): void => {
    callHook(onCircuitChange, endpointId, circuit, reopensAt);
  };

  /** Changes the circuit; the caller notifies once the state is whole, so the hook sees it settled. */
  const move = (state: EndpointState, circuit: CircuitState): void => {
    state.circuit = circuit;
    state.period++;
  };

  const sweep = (now: number): void => {
    if (states.size === 0) return;
    for (let step = 0; step < SWEEP_STEPS; step++) {
      sweeper ??= states.entries();
      const next = sweeper.next();
      if (next.done === true) {
        sweeper = undefined;
        return;
      }
      const [endpointId, state] = next.value;
      if (idle(state, now)) states.delete(endpointId);
    }
  };

  /** Feeds an ended attempt to the breaker; returns the transition to report, if any. */
  const settle = (
    settings: CircuitBreakerSettings,
    state: EndpointState,
    ticket: GateTicket,
    period: number,
    success: boolean,
    now: number,
  ): CircuitState | undefined => {
    if (state.probe === ticket) {
      state.probe = undefined;
      if (success) {
        state.failures = 0;
        state.openMs = settings.openMs;
        move(state, "closed");
        return "closed";
      }
      state.openMs = Math.min(state.openMs * 2, settings.maxOpenMs);
      state.reopensAt = now + state.openMs;
      move(state, "open");
      return "open";
    }
    if (state.circuit !== "closed" || state.period !== period) return undefined;
    if (success) {
      state.failures = 0;
      return undefined;
    }
    state.failures++;
    if (state.failures < settings.failureThreshold) return undefined;
    state.failures = 0;
    state.openMs = settings.openMs;
    state.reopensAt = now + state.openMs;
    move(state, "open");
    return "open";
  };

  const issue = (endpointId: string, state: EndpointState): GateTicket => {
    const period = state.period;
    let finished = false;
    const ticket: GateTicket = {
      finish(outcome) {
        if (finished) return;
        finished = true;
        // Forgotten since: the state this ticket held a slot in is gone.
        if (states.get(endpointId) !== state) return;
        state.inFlight--;
        const now = clock();
        const change =
          breaker === undefined
            ? undefined
            : settle(breaker, state, ticket, period, outcome === "success", now);
        if (idle(state, now)) states.delete(endpointId);
        if (change !== undefined) notify(endpointId, change, change === "open" ? state.reopensAt : undefined);
      },
    };
    return ticket;
  };

  return {
    admit(endpointId, limits, now) {
      sweep(now);
      let state = states.get(endpointId);
      if (state === undefined) {
        state = {
          inFlight: 0,
          bucket: undefined,
          circuit: "closed",
          failures: 0,
          openMs: breaker?.openMs ?? 0,
          reopensAt: 0,
          period: 0,
          probe: undefined,
        };
        states.set(endpointId, state);
      }

      let probe = false;
      if (state.circuit === "half-open") {
        const wait = Math.min(breaker?.openMs ?? PROBE_RETRY_MAX_MS, PROBE_RETRY_MAX_MS);
        return { admitted: false, retryAt: now + wait, why: "circuit-open" };
      }
      if (state.circuit === "open") {
        // The clock went back: wait no longer than the circuit's open duration from now.
        if (state.reopensAt - now > state.openMs) state.reopensAt = now + state.openMs;
        if (now < state.reopensAt) return { admitted: false, retryAt: state.reopensAt, why: "circuit-open" };
        probe = true;
      }

      if (state.inFlight >= Math.max(1, limits.concurrency)) {
        return { admitted: false, retryAt: now + CONCURRENCY_RETRY_MS, why: "concurrency" };
      }

      const rate = limits.ratePerSecond;
      if (rate !== undefined && rate > 0 && rate < Infinity) {
        state.bucket ??= { rate, tokens: capacity(rate), at: now };
        const { bucket } = state;
        refill(bucket, rate, now);
        if (bucket.tokens + TOKEN_SLACK < 1) {
          const wait = Math.max(1, Math.ceil(((1 - bucket.tokens) * 1000) / rate));
          return { admitted: false, retryAt: now + wait, why: "rate" };
        }
        bucket.tokens = Math.max(0, bucket.tokens - 1);
      } else {
        state.bucket = undefined;
      }

      state.inFlight++;
      const ticket = issue(endpointId, state);
      if (probe) {
        move(state, "half-open");
        state.probe = ticket;
        notify(endpointId, "half-open", undefined);
      }
      return { admitted: true, ticket };
    },

    state: (endpointId) => states.get(endpointId)?.circuit ?? "closed",

    forget(endpointId) {
      const state = states.get(endpointId);
      if (state === undefined) return;
      states.delete(endpointId);
      if (state.circuit !== "closed") notify(endpointId, "closed", undefined);
    },

    size: () => states.size,
  };
}
