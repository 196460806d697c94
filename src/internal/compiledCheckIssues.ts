import { codePointLength } from "./codePointLength.js";
import { raise, typeIssue } from "./compiledIssues.js";
import type { Key, Run } from "./compiledRun.js";
import { describeFound, safeText, withArticle } from "./describe.js";
import type { IssueCode, IssueParams } from "./issue.js";

// The issues of a generated validator's further checks (lengths, formats, the rules of some types,
// the limits), each raised through `raise` with a function that writes its message.

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

/** Something that is not JSON found at the run's path (`undefined` where a member is missing is "required"). */
export function notJsonIssue(r: Run, found: string, missing: boolean): void {
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
