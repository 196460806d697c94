import { type Key, type Run, unread } from "./compiledRun.js";
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
import {
  type Expected,
  type IssueCode,
  type IssueParams,
  type Literal,
  MAX_POINTER_LENGTH,
  makeIssue,
} from "./issue.js";

// How a generated validator's run records its issues (`raise`, and `counted` then `keep`), and the
// issues of a value's type or values, which read the label and pointer `counted` finds. The issues
// of the further checks, raised through `raise`, are in compiledCheckIssues.ts.

/** Records an issue: kept while there is room, counted past it. Messages are written only when kept. */
export function raise<C extends IssueCode>(
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

/** Keeps an issue counted by `counted`, at `path` (`at` its pointer, when `counted` found one). */
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

/** A value outside an enumeration, raised without counting what it holds (the caller does, or not). */
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
