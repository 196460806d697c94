/**
 * The exponential backoff before retry number `attempt + 1` (attempt 0 is the wait after the first
 * failure): `minDelayMs * 2 ** attempt`, capped at `maxDelayMs`. Never NaN, whatever the attempt.
 */
export function exponentialDelay(attempt: number, minDelayMs: number, maxDelayMs: number): number {
  if (minDelayMs <= 0) return 0;
  // 2 ** 1100 is Infinity; the cap applies before any overflow can matter.
  const delay = minDelayMs * 2 ** Math.min(attempt, 1100);
  return Math.min(maxDelayMs, delay);
}

/**
 * A delay spread at random within ±`spread` of it, so that senders failing together do not retry
 * together: `0.2` gives a point of `[delay * 0.8, delay * 1.2)`, `0` the delay itself. `random`
 * defaults to `Math.random` and must return a number in `[0, 1)`.
 */
export function jitter(delay: number, spread: number, random: () => number = Math.random): number {
  return delay * (1 - spread + 2 * spread * random());
}

/**
 * The planned wait before retry number `retry + 1` (0 is the retry after the first attempt):
 * `delaysMs[retry]` spread by ±`jitter`, or `undefined` when `delaysMs` holds no more (no retry is
 * left). What a `Retry-After` asks is the caller's to weigh.
 */
export function plannedRetryDelay(
  retry: { readonly delaysMs: readonly number[]; readonly jitter: number },
  index: number,
  random?: () => number,
): number | undefined {
  const delay = retry.delaysMs[index];
  return delay === undefined ? undefined : jitter(delay, retry.jitter, random);
}
