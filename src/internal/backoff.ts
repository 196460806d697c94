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
 * A delay spread at random over `[delay * low, delay * high)`, so that clients failing together do
 * not retry together: `(0.5, 1)` is "a random point in the upper half", `(0.8, 1.2)` is ±20%.
 * `random` defaults to `Math.random` and must return a number in `[0, 1)`.
 */
export function jitter(delay: number, low: number, high: number, random: () => number = Math.random): number {
  return delay * (low + (high - low) * random());
}
