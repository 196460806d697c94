import { describeFound } from "./describe.js";
import { MAX_TIMER_MS } from "./sleep.js";

/**
 * Retry settings once checked, every default applied: the waits before each retry (their number is
 * the number of retries), their spread, and the cap of a `Retry-After` (`undefined` lets the caller
 * apply its own rule).
 */
export interface InternalRetryOptions<M extends number | undefined = number | undefined> {
  readonly delaysMs: readonly number[];
  readonly jitter: number;
  readonly maxRetryAfterMs: M;
}

/** The most retries `delaysMs` may hold. */
export const MAX_RETRIES = 100;

/** The longest single wait `delaysMs` may hold (about 7 years): anything longer is a mistake. */
const MAX_DELAY_MS = MAX_TIMER_MS * 100;

const members = ["delaysMs", "jitter", "maxRetryAfterMs"];

/**
 * Checks a `retry` option (`{ delaysMs?, jitter?, maxRetryAfterMs? }`) and fills in each missing
 * member from `defaults`; `undefined` is all defaults. Throws a `TypeError` that starts with
 * `prefix` and names the member (`retry.delaysMs`) for anything invalid, and for a member the
 * option does not have.
 */
export function normalizeRetryOptions<M extends number | undefined>(
  value: unknown,
  defaults: InternalRetryOptions<M>,
  prefix: string,
): InternalRetryOptions<M> {
  const fail = (message: string): never => {
    throw new TypeError(`${prefix} ${message}`);
  };
  if (value === undefined) return defaults;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(`retry must be an object, not ${describeFound(value)}`);
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !members.includes(key));
  if (unknown !== undefined) {
    fail(
      `retry has no member ${describeFound(unknown)}: it takes delaysMs (the waits before each retry), jitter and maxRetryAfterMs`,
    );
  }
  const { delaysMs = defaults.delaysMs, jitter = defaults.jitter, maxRetryAfterMs } = given;
  const list = `a list of at most ${MAX_RETRIES} waits in milliseconds, each a finite number >= 0`;
  if (!Array.isArray(delaysMs)) fail(`retry.delaysMs must be ${list}, not ${describeFound(delaysMs)}`);
  const delays = delaysMs as readonly unknown[];
  if (delays.length > MAX_RETRIES) fail(`retry.delaysMs must be ${list}, not ${delays.length} of them`);
  delays.forEach((delay, index) => {
    if (typeof delay !== "number" || !(delay >= 0 && delay <= MAX_DELAY_MS)) {
      fail(`retry.delaysMs must be ${list}: item ${index} is ${describeFound(delay)}`);
    }
  });
  if (typeof jitter !== "number" || !(jitter >= 0 && jitter < 1)) {
    fail(`retry.jitter must be a number from 0 to below 1 (0.2 is ±20%), not ${describeFound(jitter)}`);
  }
  if (maxRetryAfterMs !== undefined && (typeof maxRetryAfterMs !== "number" || !(maxRetryAfterMs >= 0))) {
    fail(
      `retry.maxRetryAfterMs must be a number of milliseconds >= 0 (Infinity for no limit), not ${describeFound(maxRetryAfterMs)}`,
    );
  }
  return {
    delaysMs: [...(delays as readonly number[])],
    jitter: jitter as number,
    maxRetryAfterMs: (maxRetryAfterMs ?? defaults.maxRetryAfterMs) as M,
  };
}
