/**
 * The limits every validation runs under, so that its cost is bounded by the input's size and these
 * numbers, never by the input's shape. The public, documented form is `ValidationLimits`.
 */
export interface Limits {
  /** Levels of nesting below the value under validation. */
  readonly maxDepth: number;
  /** Values visited, counting a shared reference each time it is reached. */
  readonly maxNodes: number;
  /** Issues reported; the rest are only counted. */
  readonly maxIssues: number;
}

/** The deepest nesting any validation accepts, whatever it is asked. */
export const MAX_DEPTH = 2048;

export const DEFAULT_LIMITS: Limits = { maxDepth: 512, maxNodes: 1_000_000, maxIssues: 100 };

let active: Limits = DEFAULT_LIMITS;

/** The limits of the validation under way (the defaults outside one). */
export function activeLimits(): Limits {
  return active;
}

/** Runs `work` with `limits` active; validation is synchronous, so nothing else sees them. */
export function withLimits<T>(limits: Limits, work: () => T): T {
  const previous = active;
  active = limits;
  try {
    return work();
  } finally {
    active = previous;
  }
}

/** The most values any validation visits, whatever it is asked: past it, a graph of shared objects costs too much. */
export const MAX_NODES = 100_000_000;

/** A whole number from 1 to `max` (a finite number of 1 or more, rounded down), or `fallback`. */
const limit = (value: unknown, fallback: number, max: number): number =>
  typeof value === "number" && value >= 1 && value < Infinity ? Math.min(Math.floor(value), max) : fallback;

/**
 * Complete limits from what a caller passed: each missing, non-numeric or non-positive member takes
 * its default. Never throws, whatever it is given.
 */
export function normalizeLimits(options?: Partial<Record<keyof Limits, unknown>> | null): Limits {
  if (options === undefined || options === null) return DEFAULT_LIMITS;
  try {
    return {
      // The walks recurse once per level: beyond a few thousand, the call stack would end them.
      maxDepth: limit(options.maxDepth, DEFAULT_LIMITS.maxDepth, MAX_DEPTH),
      maxNodes: limit(options.maxNodes, DEFAULT_LIMITS.maxNodes, MAX_NODES),
      maxIssues: limit(options.maxIssues, DEFAULT_LIMITS.maxIssues, Infinity),
    };
  } catch {
    return DEFAULT_LIMITS;
  }
}
