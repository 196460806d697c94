import { plannedRetryDelay } from "../internal/backoff.js";
import type { InternalRetryOptions } from "../internal/normalizeRetryOptions.js";

/** What decides the wait before the next attempt. */
export interface RetryDelayInput {
  /** The retry settings; `maxRetryAfterMs` `undefined` caps a `Retry-After` at the wait after the next one. */
  readonly retry: InternalRetryOptions;
  /** Attempts made so far, the failed one included (1 after the first attempt). */
  readonly attempts: number;
  /** What a `Retry-After` asked for, if the answer carried one. */
  readonly retryAfterMs: number | undefined;
  /** `[0, 1)`, for tests. */
  readonly random?: () => number;
}

/**
 * The dispatcher's wait before the next attempt, or `undefined` when `delaysMs` is exhausted (the
 * delivery is dead). A `Retry-After` lengthens the planned wait, never shortens it, and is honoured
 * up to `maxRetryAfterMs` (by default the wait after the next one, or the last wait).
 */
export function retryDelay(input: RetryDelayInput): number | undefined {
  const { retry, attempts, retryAfterMs } = input;
  const planned = plannedRetryDelay(retry, attempts - 1, input.random);
  if (planned === undefined) return undefined;
  if (retryAfterMs === undefined || !(retryAfterMs > planned)) return Math.round(planned);
  const { delaysMs } = retry;
  const cap = retry.maxRetryAfterMs ?? delaysMs[attempts] ?? delaysMs[delaysMs.length - 1] ?? planned;
  return Math.round(Math.max(planned, Math.min(retryAfterMs, cap)));
}
