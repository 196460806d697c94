import { indexedLength } from "./findLimitBreach.js";
import { isPlainObject } from "./isPlainObject.js";

// What the generated guards (src/events/compiledGuards.ts) call. A guard gives the verdict of the
// generated validator of the same schema (compiledRuntime.ts) and nothing else: it stops at the
// first problem, copies nothing and writes no issue. It counts values and levels exactly as the
// validator's run does, so that its verdict under the limits is the run's too.

/**
 * The state of one guard's run: the values it may still visit (counted generously, never short,
 * as a validator's run counts them) and whether a limit may be broken, for the exact walk to decide.
 */
export interface Budget {
  /** Values that may still be visited before the node limit. */
  nodes: number;
  /** The depth at which a container breaks the depth limit (`maxDepth`: a guard starts at 0). */
  readonly maxDepth: number;
  readonly maxNodes: number;
  /** A limit may be broken, or a value was left unread: the exact walk decides. */
  suspect: boolean;
}

/** A generated guard: is `x`, found `d` levels down, valid? */
export type Guard = (x: unknown, b: Budget, d: number) => boolean;

/** Whether `x` is an object a validator enters (as `enter` does); marks the budget at the depth limit. */
export function isObjectAt(b: Budget, x: unknown, d: number): x is Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
  if (d >= b.maxDepth) b.suspect = true;
  // Too many members to list: over the node limit.
  return indexedLength(x) <= b.nodes;
}

/** Whether `x` is an array a validator reads (as `list` does), its entries counted. */
export function isArrayAt(b: Budget, x: unknown, d: number): x is unknown[] {
  if (!Array.isArray(x)) return false;
  if (d >= b.maxDepth) b.suspect = true;
  if (x.length > b.maxNodes) return false;
  b.nodes -= x.length;
  if (b.nodes < 0) b.suspect = true;
  return true;
}

/**
 * A value a validator leaves unread (the own `__proto__` member of an object that allows more
 * members): where it is an object, the limits there are the exact walk's to check.
 */
export function unread(b: Budget, value: unknown): void {
  if (typeof value === "object" && value !== null) b.suspect = true;
}

/**
 * Whether `value`, `d` levels down, is JSON (strings, finite numbers, booleans, null, arrays and
 * plain objects) within the limits, as a validator's copy of a JSON member decides: `false` at the
 * first value that is not, and where its walk stops at a limit.
 */
export function isJsonAt(b: Budget, value: unknown, d: number): boolean {
  if (typeof value !== "object" || value === null)
    return (
      value === null || typeof value === "string" || typeof value === "boolean" || Number.isFinite(value)
    );
  const isArray = Array.isArray(value);
  // Once the budget is spent, no further object has its members listed (as a validator does).
  if ((!isArray && (!isPlainObject(value) || b.nodes < 0)) || d >= b.maxDepth) return false;
  // An array's entries by index, an object's own members by name: counted, then checked.
  const keys = isArray ? undefined : Object.keys(value);
  const length = keys === undefined ? (value as unknown[]).length : keys.length;
  b.nodes -= length;
  if (b.nodes < 0) return false;
  for (let i = 0; i < length; i++) {
    const item = (value as Record<string | number, unknown>)[keys === undefined ? i : keys[i]!];
    if (!isJsonAt(b, item, d + 1)) return false;
  }
  return true;
}
