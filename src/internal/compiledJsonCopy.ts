import { notJsonIssue } from "./compiledCheckIssues.js";
import { put } from "./compiledMembers.js";
import type { Key, Run } from "./compiledRun.js";
import { describeValue } from "./describe.js";

// The JSON members of a generated validator: checked and copied in one walk, bounded by the run's
// limits.

/** Returned by the walk of a JSON member where it stopped: not JSON (see `notJson`), or at a limit. */
const FAILED = {};

/**
 * Checks that `value` is JSON (strings, finite numbers, booleans, null, arrays and plain objects)
 * and returns a copy of it, so that nothing a getter or proxy does later changes what was checked.
 * At the first value that is not JSON, raises one issue (as Zod's check of a JSON member does) and
 * returns `undefined`. `atRoot` says whether a missing value is a missing member (it is not for
 * the extra members of an object); `always` copies even after an issue. Bounded by the run's node and depth limits: where it stops at
 * one, the run is marked, and the value returned uncopied for the exact walk to judge.
 */
export function jsonCopy(
  r: Run,
  value: unknown,
  key: Key | undefined,
  atRoot: boolean,
  always?: boolean,
): unknown {
  if (typeof value === "string" || typeof value === "boolean") return value;
  const depth = r.path.length + (key === undefined ? 0 : 1);
  // Once an issue is raised the result is a failure: the member is checked, no longer copied,
  // unless the copy is read again (`always`: by the JSON:API rules, which must not read the input
  // a second time).
  const copy = copyValue(r, value, depth, always === true || r.count === 0);
  if (copy !== FAILED) return copy;
  if (r.stopped !== undefined) return value;
  // The walk stopped at the first value that is not JSON: the rest is unread.
  r.unvisited = true;
  const inner = (r.notJsonPath ?? []).reverse();
  r.notJsonPath = undefined;
  const found = r.notJson;
  const path = key === undefined ? inner : [key, ...inner];
  for (const segment of path) r.path.push(segment);
  notJsonIssue(r, found, atRoot && inner.length === 0);
  r.path.length -= path.length;
  return undefined;
}

/** Records `key` on the way out of the walk that stopped: the path to where it did, innermost first. */
function notJsonAt(r: Run, key: Key): void {
  if (r.notJsonPath === undefined) r.notJsonPath = [key];
  else r.notJsonPath.push(key);
}

/** Stops the walk at a value that is not JSON, `found` saying what it is. */
function notJson(r: Run, found: string): unknown {
  r.notJson = found;
  return FAILED;
}

/**
 * Checks `value`, at path length `depth`, and copies it when `copying`: the copy (the value itself
 * when not copying), or `FAILED` where the walk stopped.
 */
function copyValue(r: Run, value: unknown, depth: number, copying: boolean): unknown {
  if (value === null) return value;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : notJson(r, String(value));
    case "object":
      break;
    default:
      return notJson(r, describeValue(value));
  }
  const isArray = Array.isArray(value);
  // A plain object's prototype is null or the one of plain objects (read once, as isPlainObject does).
  const proto = isArray ? undefined : prototypeOf(value);
  if (!isArray && proto !== null && (proto === undefined || prototypeOf(proto) !== null))
    return notJson(r, describeValue(value));
  if (depth >= r.depthLimit) {
    // A cycle ends here too: the exact walk finds where it closes.
    r.suspect = true;
    r.stopped = "too_deep";
    return FAILED;
  }
  if (isArray) {
    const items = value as unknown[];
    const length = items.length;
    r.nodes -= length;
    if (r.nodes < 0) return stop(r);
    const copy: unknown[] | undefined = copying ? new Array(length) : undefined;
    for (let i = 0; i < length; i++) {
      const item = items[i];
      let inner: unknown = item;
      if (typeof item !== "string" && typeof item !== "boolean") {
        inner = copyValue(r, item, depth + 1, copying);
        if (inner === FAILED) {
          notJsonAt(r, i);
          return FAILED;
        }
      }
      if (copy !== undefined) copy[i] = inner;
    }
    return copy ?? value;
  }
  // Once the budget is spent, no further object has its members listed.
  if (r.nodes < 0) return stop(r);
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  r.nodes -= keys.length;
  if (r.nodes < 0) return stop(r);
  // A plain object with no prototype stays so.
  const copy: Record<string, unknown> | undefined = copying
    ? proto === null
      ? Object.create(null)
      : {}
    : undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = source[key];
    let inner: unknown = item;
    if (typeof item !== "string" && typeof item !== "boolean") {
      inner = copyValue(r, item, depth + 1, copying);
      if (inner === FAILED) {
        notJsonAt(r, key);
        return FAILED;
      }
    }
    if (copy === undefined) continue;
    if (key === "__proto__") put(copy, key, inner);
    else copy[key] = inner;
  }
  return copy ?? value;
}

/** The prototype of `value`, `undefined` where a proxy's trap throws (then it is no plain object). */
function prototypeOf(value: object): object | null | undefined {
  try {
    return Object.getPrototypeOf(value);
  } catch {
    return undefined;
  }
}

/** Stops the walk at the node limit. */
function stop(r: Run): unknown {
  r.suspect = true;
  r.stopped = "too_many_nodes";
  return FAILED;
}
