import { jitter as spread } from "../internal/backoff.js";

/** What decides the wait before the next attempt. */
export interface RetryDelayInput {
  /** The waits after the first attempt, in milliseconds. */
  readonly schedule: readonly number[];
  /** The spread of each wait, as a fraction (0.2 is ±20%). */
  readonly jitter: number;
  /** Attempts made so far, the failed one included (1 after the first attempt). */
  readonly attempts: number;
  /** What a `Retry-After` asked for, if the answer carried one. */
  readonly retryAfterMs: number | undefined;
  /** The cap of a `Retry-After`; by default the schedule step after the next one. */
  readonly maxRetryAfterMs: number | undefined;
  /** `[0, 1)`, for tests. */
  readonly random?: () => number;
}

/**
 * The wait before the next attempt, or `undefined` when the schedule is exhausted (the delivery is
 * dead). A `Retry-After` lengthens the scheduled wait, never shortens it, and is honoured up to
 * `maxRetryAfterMs` (by default the step after the next one, or the last step).
 */
export function retryDelay(input: RetryDelayInput): number | undefined {
  const { schedule, attempts, retryAfterMs } = input;
  const step = schedule[attempts - 1];
  if (step === undefined) return undefined;
  const scheduled = spread(step, 1 - input.jitter, 1 + input.jitter, input.random);
  if (retryAfterMs === undefined || !(retryAfterMs > scheduled)) return Math.round(scheduled);
  const cap = input.maxRetryAfterMs ?? schedule[attempts] ?? schedule[schedule.length - 1] ?? scheduled;
  return Math.round(Math.max(scheduled, Math.min(retryAfterMs, cap)));
}
