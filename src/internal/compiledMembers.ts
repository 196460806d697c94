import { minLengthOf, tooManyNodesIssue } from "./compiledCheckIssues.js";
import { typeIssue, unknownIssues } from "./compiledIssues.js";
import { type Run, unread } from "./compiledRun.js";
import { indexedLength } from "./findLimitBreach.js";

// What a generated validator reads its values with: objects and arrays entered, the members of the
// commonest kinds, the members an object does not declare, and `put`, which sets a member on a copy.

/**
 * Enters an object: `false` (with the issue raised) when `x` is not one; marks the run when the
 * object sits at the depth limit.
 */
export function enter(r: Run, x: unknown): x is Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    typeIssue(r, undefined, x, "object");
    return false;
  }
  if (r.path.length >= r.depthLimit) r.suspect = true;
  if (indexedLength(x) > r.nodes) {
    // Too many members to list: over the node limit, which the exact walk reports.
    r.suspect = true;
    r.stopped = "too_many_nodes";
    return false;
  }
  return true;
}

/**
 * Enters an array: `false` (with the issue raised) when `x` is not one, or holds more entries than
 * the node limit (refused before one is read); counts its entries; marks the run when the array
 * sits at the depth limit. A `minimum` length is checked on a value that is not an array too, as
 * Zod does.
 */
export function list(r: Run, x: unknown, minimum?: number): x is unknown[] {
  if (!Array.isArray(x)) {
    typeIssue(r, undefined, x, "array");
    if (minimum !== undefined) minLengthOf(r, undefined, x, minimum);
    return false;
  }
  if (r.path.length >= r.depthLimit) r.suspect = true;
  if (x.length > r.maxNodes) {
    tooManyNodesIssue(r);
    return false;
  }
  r.nodes -= x.length;
  if (r.nodes < 0) r.suspect = true;
  return true;
}

/**
 * Raises an issue for each member of `x` a strict object does not declare (`keys`, found by the
 * caller's `for…in`, which lists inherited members too, as Zod's check does).
 */
export function unknownMembers(r: Run, x: Record<string, unknown>, keys: readonly string[]): void {
  unknownIssues(r, keys);
  for (const key of keys) {
    const value = x[key];
    if (typeof value === "object" && value !== null) unread(r, value, key);
  }
}

const PROTO = "__proto__";

/**
 * An own `__proto__` member of an object that allows more members: left out of the copy unread, as
 * Zod does, so the limits there are the exact walk's to check.
 */
export function skipProto(r: Run, x: Record<string, unknown>): void {
  const value = x[PROTO];
  if (typeof value === "object" && value !== null) r.unvisited = true;
}

// Members of the commonest kinds, read and checked in one call (smaller generated code): each
// reads `x[key]` once, raises the issue Zod's schema would, and returns the value.

/** A required string member. */
export function str(r: Run, x: Record<string, unknown>, key: string): unknown {
  const value = x[key];
  if (typeof value !== "string") typeIssue(r, key, value, "string");
  return value;
}

/** An optional string member (`null` too when `nullable`). */
export function optStr(r: Run, x: Record<string, unknown>, key: string, nullable?: boolean): unknown {
  const value = x[key];
  if (value !== undefined && typeof value !== "string" && !(nullable && value === null))
    typeIssue(r, key, value, "string");
  return value;
}

/** A boolean member, optional or not. */
export function bool(r: Run, x: Record<string, unknown>, key: string, optional?: boolean): unknown {
  const value = x[key];
  if (typeof value !== "boolean" && !(optional && value === undefined)) typeIssue(r, key, value, "boolean");
  return value;
}

/** The two objects, so that `isObject` reads as what it checks. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets `key` on a copy, even `__proto__`, which an assignment would take as the prototype. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    // A descriptor without a prototype: members added to Object.prototype (`get`, say) cannot
    // slip into it.
    Object.defineProperty(target, key, {
      __proto__: null,
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    } as PropertyDescriptor);
  else target[key] = value;
}
