import { codePointLength } from "./codePointLength.js";
import {
  describeFound,
  describeValue,
  ECHO_LIMIT,
  expectedList,
  expectedText,
  isIdentifier,
  kindsOf,
  listAlternatives,
  oneOf,
  pathLabel,
  quote,
  safeText,
  withArticle,
} from "./describe.js";
import { indexedLength } from "./findLimitBreach.js";
import {
  type Expected,
  type Issue,
  type IssueCode,
  type IssueParams,
  type Literal,
  MAX_POINTER_LENGTH,
  makeIssue,
} from "./issue.js";
import type { Limits } from "./limits.js";

// What the generated validators (src/events/compiledValidators.ts) call: the state of one
// validation, and the library's issues, each written here once, in the same words as the issues
// converted from Zod's (toEventIssues.ts). A test runs both on the same values and compares them.

type Key = string | number;

/**
 * The state of one validation by the generated code. (Its members are set in the constructor, not
 * by field initializers: one object shape, built without a call per field.)
 */
export class Run {
  /** The issues kept, once there is one. */
  declare issues: Issue[] | undefined;
  /** Issues raised past `maxIssues`, only counted. */
  declare omitted: number;
  /** Issues raised, kept or not. */
  declare count: number;
  /** Issues raised that stop a schema's own checks (as Zod's do: all but a few). */
  declare aborts: number;
  /** Values that may still be visited before the node limit: counted generously, never short. */
  declare nodes: number;
  /** The path length at which a container breaks the depth limit. */
  declare readonly depthLimit: number;
  declare readonly maxNodes: number;
  declare readonly maxIssues: number;
  /** A limit may be broken: the exact walk (`findLimitBreach`) decides. */
  declare suspect: boolean;
  /**
   * An issue left a container unread (an object where a string belongs, the value of an unknown
   * member…): the limits may be broken there, and only the exact walk can tell.
   */
  declare unvisited: boolean;
  /** The limit that cut a JSON member's walk short, leaving the run incomplete. */
  declare stopped: "too_deep" | "too_many_nodes" | undefined;
  /** Where a JSON member stopped being JSON, innermost first, and what was found there. */
  declare notJsonPath: Key[] | undefined;
  declare notJson: string;
  /** The path of the value being checked: a stack the validators push to and pop, owned by the run. */
  declare readonly path: Key[];

  /**
   * A run under `limits` for a value at `path` (a stack the validators push to and pop, owned by the
   * run), whose first `base` segments are outside the value.
   */
  constructor(path: Key[], base: number, limits: Limits) {
    this.path = path;
    this.issues = undefined;
    this.omitted = 0;
    this.count = 0;
    this.aborts = 0;
    this.nodes = limits.maxNodes - 1;
    this.depthLimit = base + limits.maxDepth;
    this.maxNodes = limits.maxNodes;
    this.maxIssues = limits.maxIssues;
    this.suspect = false;
    this.unvisited = false;
    this.stopped = undefined;
    this.notJsonPath = undefined;
    this.notJson = "";
  }
}

/**
 * Counts the members of a container that validation leaves unread (an object where a string
 * belongs, the value of an unknown member…), at `key` below the run's path, as the run counts the
 * ones it reads: so that a run that read or counted everything within the limits needs no exact
 * walk of the whole value. Where the count reaches a limit, or reading throws, the exact walk
 * decides. Cost: at most the node limit.
 */
function unread(r: Run, value: object, key: Key | undefined): void {
  try {
    if (!fits(r, value, r.path.length + (key === undefined ? 0 : 1))) r.suspect = true;
  } catch {
    r.unvisited = true;
  }
}

/**
 * A value that validation leaves unread (an object of an unknown variant, the further members of
 * an object after an issue stopped their checks), at `key` below the run's path: counted as `unread`
 * counts.
 */
export function unreadValue(r: Run, value: unknown, key: Key | undefined): void {
  if (typeof value === "object" && value !== null) unread(r, value, key);
}

/** Counts a container at path length `depth` and everything in it; `false` once past a limit. */
function fits(r: Run, value: object, depth: number): boolean {
  if (depth >= r.depthLimit) return false;
  if (Array.isArray(value)) {
    const length = value.length;
    r.nodes -= length;
    if (r.nodes < 0) return false;
    for (let i = 0; i < length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null && !fits(r, item, depth + 1)) return false;
    }
    return true;
  }
  if (indexedLength(value) > r.nodes) return false;
  for (const key in value) {
    if (--r.nodes < 0) return false;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && !fits(r, item, depth + 1)) return false;
  }
  return true;
}

/** Records an issue: kept while there is room, counted past it. Messages are written only when kept. */
function raise<C extends IssueCode>(
  r: Run,
  abort: boolean,
  key: Key | undefined,
  code: C,
  message: (label: string) => string,
  params: IssueParams[C],
) {
  const path = counted(r, abort, key);
  if (path !== undefined) {
    const at = pointer;
    keep(r, code, path, at, message(label), params);
  }
}

// What `counted` found besides the path: its label, and its pointer (`undefined` when `makeIssue`
// must work it out). Read at once by the caller: writing a message may run the caller's code.
let label = "";
let pointer: string | undefined;

/**
 * Counts an issue at `key` below the run's path, and returns its path when there is room to keep it
 * (the caller then writes its message and calls `keep`): the commonest issues are raised so, without
 * a function to write the message. Sets `label` and `pointer`.
 */
function counted(r: Run, abort: boolean, key: Key | undefined): Key[] | undefined {
  r.count++;
  if (abort) r.aborts++;
  if (r.issues !== undefined && r.issues.length >= r.maxIssues) {
    r.omitted++;
    return undefined;
  }
  // The path, its label and its pointer in one pass, when every segment is an index or a short
  // identifier (nothing to quote, escape or leave out) and the path is short: as `pathLabel` and
  // `makeIssue` would write them.
  const stack = r.path;
  const depth = stack.length;
  // One array of the right length (a copy, then a push, would allocate twice).
  const path: Key[] = new Array(key === undefined ? depth : depth + 1);
  for (let i = 0; i < depth; i++) path[i] = stack[i] as Key;
  if (key !== undefined) path[depth] = key;
  let text = "";
  let at = "";
  let plain = path.length <= 8;
  for (let i = 0; plain && i < path.length; i++) {
    const segment = path[i] as Key;
    if (typeof segment === "number") {
      text += `[${segment}]`;
      at += `/${segment}`;
    } else if (segment.length <= ECHO_LIMIT && isIdentifier(segment)) {
      text += text === "" ? segment : `.${segment}`;
      at += `/${segment}`;
    } else plain = false;
  }
  if (plain && at.length <= MAX_POINTER_LENGTH) {
    label = text === "" ? "the value" : text;
    pointer = at;
  } else {
    label = pathLabel(path);
    pointer = undefined;
  }
  return path;
}

function keep<C extends IssueCode>(
  r: Run,
  code: C,
  path: Key[],
  at: string | undefined,
  message: string,
  params: IssueParams[C],
): void {
  const issue = makeIssue(code, path, message, params, at);
  // The first issue in a list of one (an empty list would grow to hold sixteen).
  if (r.issues === undefined) r.issues = [issue];
  else r.issues.push(issue);
}

/** A value of the wrong type, or a missing one: `expected` is its kind, "string", "object"… */
export function typeIssue(r: Run, key: Key | undefined, value: unknown, expected: Expected): void {
  if (typeof value === "object" && value !== null) unread(r, value, key);
  const path = counted(r, true, key);
  if (path === undefined) return;
  // Read before anything that may run the caller's code (a class name's getter).
  const at = pointer;
  const l = label;
  const text = expectedText(expected);
  if (value === undefined)
    keep(r, "required", path, at, `${l} is required: expected ${text}`, { expected: [expected] });
  else {
    const received = describeValue(value);
    keep(r, "invalid_type", path, at, `${l} must be ${text}, not ${withArticle(received)}`, {
      expected,
      received,
    });
  }
}

/** A value that matches no alternative of a union, whose kinds are `expected`. */
export function variantIssue(
  r: Run,
  key: Key | undefined,
  value: unknown,
  expected: readonly Expected[],
): void {
  if (typeof value === "object" && value !== null) unread(r, value, key);
  const path = counted(r, true, key);
  if (path === undefined) return;
  const at = pointer;
  const l = label;
  if (value === undefined)
    keep(r, "required", path, at, `${l} is required: expected ${expectedList(expected)}`, {
      expected: expected.slice(),
    });
  else {
    const received = describeValue(value);
    keep(
      r,
      "no_matching_variant",
      path,
      at,
      `${l} must be ${expectedList(expected)}, not ${withArticle(received)}`,
      {
        expected: expected.slice(),
        received,
      },
    );
  }
}

/** A value outside an enumeration, whose values are `values`. */
export function valueIssue(r: Run, key: Key | undefined, value: unknown, values: readonly Literal[]): void {
  if (typeof value === "object" && value !== null) unread(r, value, key);
  valueIssueOnly(r, key, value, values);
}

/**
 * An object whose discriminator `key` holds `value`, none of `values`: the issue, and the object
 * left unread (its members counted once, the discriminator's included).
 */
export function unknownVariant(
  r: Run,
  x: object,
  key: string,
  value: unknown,
  values: readonly Literal[],
): void {
  valueIssueOnly(r, key, value, values);
  unread(r, x, undefined);
}

function valueIssueOnly(r: Run, key: Key | undefined, value: unknown, values: readonly Literal[]): void {
  const path = counted(r, true, key);
  if (path === undefined) return;
  const at = pointer;
  const l = label;
  if (value === undefined)
    keep(r, "required", path, at, `${l} is required: expected ${alternatives(values)}`, {
      expected: kindsOf(values),
      values: values.slice(),
    });
  else
    keep(
      r,
      "invalid_value",
      path,
      at,
      `${l} must be ${alternatives(values)}, not ${describeFound(value)}`,
      oneOf(values.slice(), value),
    );
}

/** A string longer than `maximum` code points. */
export function tooLongIssue(r: Run, key: Key | undefined, value: string, maximum: number): void {
  const length = codePointLength(value);
  raise(
    r,
    true,
    key,
    "too_long",
    (l) => `${l} must be at most ${maximum} character${maximum === 1 ? "" : "s"} long, not ${length}`,
    { maximum, length },
  );
}

/** An empty string where one is required not to be. */
export function emptyIssue(r: Run, key: Key | undefined): void {
  raise(r, false, key, "too_short", (l) => `${l} must not be empty`, { minimum: 1 });
}

/**
 * A minimum length checked on a value that failed its type check, as Zod does: its length checks
 * run on anything non-null with a `length` (a string where an array belongs, say).
 */
export function minLengthOf(r: Run, key: Key | undefined, value: unknown, minimum: number): void {
  if (value === null || value === undefined) return;
  const units = (value as { length?: unknown }).length as number;
  if (units === undefined) return;
  const length =
    typeof value === "string" && units >= minimum && units < minimum * 2 ? codePointLength(value) : units;
  if (length >= minimum) return;
  if (typeof value === "string")
    raise(
      r,
      false,
      key,
      "too_short",
      (l) => (minimum === 1 ? `${l} must not be empty` : `${l} must be at least ${minimum} characters long`),
      { minimum },
    );
  else
    raise(
      r,
      false,
      key,
      "too_few_items",
      (l) =>
        `${l} must have at least ${minimum} ${minimum === 1 ? "entry" : "entries"}${Array.isArray(value) ? `, not ${value.length}` : ""}`,
      Array.isArray(value) ? { minimum, exact: false, length: value.length } : { minimum, exact: false },
    );
}

/** A blank string (nothing but white space). */
export function blankIssue(r: Run, key: Key | undefined): void {
  raise(r, true, key, "invalid_value", (l) => `${l} must not be blank`, { rule: "not_blank" });
}

/** An array with the wrong number of entries: "must have at least 1 entry, not 0". */
export function countIssue(
  r: Run,
  key: Key | undefined,
  code: "too_many_items" | "too_few_items",
  bound: "at least" | "at most" | "exactly",
  limit: number,
  length: number,
  abort: boolean,
): void {
  const exact = bound === "exactly";
  const message = (l: string) =>
    `${l} must have ${bound} ${limit} ${limit === 1 ? "entry" : "entries"}, not ${length}`;
  if (code === "too_many_items") raise(r, abort, key, code, message, { maximum: limit, exact, length });
  else raise(r, abort, key, code, message, { minimum: limit, exact, length });
}

/** A string that is not an RFC 3339 date-time. */
export function dateTimeIssue(r: Run, key: Key | undefined, value: string): void {
  raise(
    r,
    false,
    key,
    "invalid_format",
    (l) =>
      `${l} must be an RFC 3339 date-time with an offset, such as "2026-11-22T18:00:00Z", not ${describeFound(value)}`,
    { format: "date-time", received: "string", value: safeText(value) },
  );
}

/** Members a strict object does not declare, one issue each. */
export function unknownIssues(r: Run, keys: readonly string[]): void {
  for (const key of keys) {
    const path = counted(r, false, key);
    if (path !== undefined)
      keep(r, "unknown_property", path, pointer, `${label} is not allowed here (unknown property)`, {
        key: safeText(key),
      });
  }
}

/** Not exactly one of some members (`keys`), `present` of which are. */
export function exactlyOneIssue(r: Run, keys: readonly string[], present: number): void {
  const problem = present === 0 ? "it has neither" : `not ${present === 2 ? "both" : "several"}`;
  raise(
    r,
    true,
    undefined,
    "exactly_one_of",
    (l) => `${l} must have exactly one of ${keys.join(" or ")}, ${problem}`,
    { keys: keys.slice(), present },
  );
}

/** A boolean action whose two options have the same value. */
export function booleanOptionsIssue(r: Run, duplicate: unknown): void {
  const other = duplicate === "true" ? "false" : "true";
  r.path.push(1);
  raise(
    r,
    true,
    "value",
    "boolean_options",
    (l) =>
      `${l} must be "${other}": a boolean action needs one option with value "true" and one with value "false"`,
    { missing: other },
  );
  r.path.pop();
}

/** A string that is not an idempotency key. */
export function idempotencyKeyIssue(r: Run, key: Key | undefined, value: string): void {
  raise(
    r,
    true,
    key,
    "invalid_value",
    (l) => `${l} must be 1 to 255 visible ASCII characters other than the comma, not ${describeFound(value)}`,
    { rule: "idempotency_key", received: "string", value: safeText(value) },
  );
}

/** A document with `errors` beside `data`, which JSON:API forbids. */
export function errorsWithDataIssue(r: Run): void {
  raise(
    r,
    true,
    "errors",
    "unknown_property",
    (l) => `${l} is not allowed: a JSON:API document with data must not have errors`,
    { key: "errors" },
  );
}

/**
 * An issue of a rule written outside this module (the JSON:API rules), at `path` below the run's:
 * the label, then `text`. It stops the checks after it, as every custom check's issue does.
 */
export function ruleIssue<C extends IssueCode>(
  r: Run,
  path: readonly Key[],
  code: C,
  text: string,
  params: IssueParams[C],
): void {
  for (const segment of path) r.path.push(segment);
  raise(r, true, undefined, code, (l) => `${l} ${text}`, params);
  r.path.length -= path.length;
}

/** An array longer than the node limit, refused before a single entry is read. */
export function tooManyNodesIssue(r: Run): void {
  r.unvisited = true;
  raise(
    r,
    true,
    undefined,
    "too_many_nodes",
    (l) => `${l} holds more than the limit of ${r.maxNodes} values`,
    { maximum: r.maxNodes },
  );
}

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

/** Something that is not JSON found at the run's path (`undefined` where a member is missing is "required"). */
function notJsonIssue(r: Run, found: string, missing: boolean): void {
  if (found === "undefined" && missing) typeIssue(r, undefined, undefined, "json");
  else
    raise(
      r,
      true,
      undefined,
      "not_json",
      (l) =>
        `${l} must be a JSON value (a string, a finite number, a boolean, null, an array or a plain object), not ${withArticle(found)}`,
      { received: found },
    );
}

function notJsonAt(r: Run, key: Key): void {
  if (r.notJsonPath === undefined) r.notJsonPath = [key];
  else r.notJsonPath.push(key);
}

function notJson(r: Run, found: string): unknown {
  r.notJson = found;
  return FAILED;
}

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

function stop(r: Run): unknown {
  r.suspect = true;
  r.stopped = "too_many_nodes";
  return FAILED;
}

/** The alternatives of an enumeration, written for a message. */
export function alternatives(values: readonly Literal[]): string {
  let written = writtenAlternatives.get(values);
  if (written === undefined) {
    written = listAlternatives(
      values.map((value) => (typeof value === "string" ? quote(value) : String(value))),
    );
    writtenAlternatives.set(values, written);
  }
  return written;
}

// The lists are the generated module's constants: each is written once.
const writtenAlternatives = new WeakMap<readonly Literal[], string>();
