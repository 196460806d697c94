import { isPlainObject } from "./isPlainObject.js";
import type { Expected, IssueParams, Literal, Received } from "./issue.js";

/** Names a value for an error message: its JSON type, or what makes it not JSON. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? "number" : String(value);
    case "object": {
      let name: unknown;
      try {
        if (Array.isArray(value)) return "array";
        if (isPlainObject(value)) return "object";
        name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      } catch {
        // A revoked proxy (the only value `Array.isArray` throws for), or a throwing getter.
        return "object";
      }
      // A class name is the caller's text: show it only when it looks like one.
      return typeof name === "string" && /^[A-Za-z_$][\w$]{0,39}$/.test(name) ? name : "object";
    }
    default:
      return typeof value;
  }
}

/** "a string", "an object", but "null", "undefined", "NaN", "Infinity". */
export function withArticle(description: string): string {
  switch (description) {
    // The commonest, written once rather than built: this runs for most issues.
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "object":
      return "an object";
    case "null":
    case "undefined":
    case "NaN":
    case "Infinity":
    case "-Infinity":
      return description;
  }
  // "a Uint8Array", "a URL": a capital U that spells "you" takes "a".
  return /^(?:[aeiouAEIO]|U(?![A-Z]|int|ni))/.test(description) ? `an ${description}` : `a ${description}`;
}

/** How many characters of a value a message shows; the rest becomes an ellipsis. */
export const ECHO_LIMIT = 40;

// Characters that could forge or hide a log line beyond JSON's own escapes: DEL and the C1 controls, the line and
// paragraph separators, and the bidirectional overrides.
const unsafeInJson = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A string shown in a message: cut to {@link ECHO_LIMIT} characters with an ellipsis, then
 * JSON-quoted with every control character escaped, so it can neither flood a message nor break or
 * forge a log line. Never splits a surrogate pair.
 */
export function quote(value: string, limit: number = ECHO_LIMIT): string {
  const text = cut(value, limit);
  // Printable ASCII without quotes or backslashes is its own JSON, with nothing to escape.
  if (isPlainAscii(text, true)) return `"${text}"`;
  const json = JSON.stringify(text);
  return hasMatch(unsafeInJson, json) ? json.replace(unsafeInJson, escapeChar) : json;
}

/** Whether every character of `text` is printable ASCII (without `"` and `\` when `bare`). */
function isPlainAscii(text: string, bare: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || (bare && (code === 0x22 || code === 0x5c))) return false;
  }
  return true;
}

/** `pattern.test(text)` for a global pattern, leaving it as it was. */
function hasMatch(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** A value cut to `limit` characters with an ellipsis, never splitting a surrogate pair. */
export function cut(value: string, limit: number = ECHO_LIMIT): string {
  if (value.length <= limit) return value;
  const last = value.charCodeAt(limit - 1);
  return `${value.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit)}…`;
}

// Every character that could break or forge a log line: C0 and C1 controls, DEL, the line and
// paragraph separators, the bidirectional overrides, and lone surrogates.
const unsafeAnywhere =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether `value` holds a character that could break or forge a log line (see `safeText`). */
export function hasUnsafeText(value: string): boolean {
  // Printable ASCII, the common case, holds none.
  return !isPlainAscii(value, false) && hasMatch(unsafeAnywhere, value);
}

/**
 * The caller's text for a property of an error: cut to {@link ECHO_LIMIT} characters and with every
 * unsafe character written as `\uXXXX`, but not quoted (an error's `eventType`, say).
 */
export function safeText(value: string, limit: number = ECHO_LIMIT): string {
  const text = cut(value, limit);
  return isPlainAscii(text, false) ? text : text.replace(unsafeAnywhere, escapeChar);
}

/** What a value was, for "…, not X": short strings and numbers verbatim, anything else by its type. */
export function describeFound(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return withArticle(describeValue(value));
}

/** Lists alternatives in prose: `"a"`, `"a" or "b"`, `one of "a", "b" or "c"`; a long list by a few of them. */
export function listAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "nothing";
  // A long list (the 32 event types) would drown the message: name a few.
  if (items.length > 8) return `one of ${items.length} values, such as ${items.slice(0, 3).join(", ")}`;
  const head = items.slice(0, -1).join(", ");
  const last = items[items.length - 1];
  return items.length === 2 ? `${head} or ${last}` : `one of ${head} or ${last}`;
}

/** Whether `text` is an identifier of ASCII letters, digits, `_` and `$` (not starting with a digit). */
export function isIdentifier(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const letter =
      (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x24;
    if (!letter && !(i > 0 && code >= 0x30 && code <= 0x39)) return false;
  }
  return true;
}

/**
 * A path as a JavaScript developer reads it: `content.options[0].value`, `content["x-y"]`. Very deep
 * paths keep their first and last segments, and long keys are cut like any echoed value, so a label
 * stays short whatever the input.
 */
export function pathLabel(path: readonly (string | number)[]): string {
  if (path.length > 8) {
    const tail = pathLabel(path.slice(-3));
    return `${pathLabel(path.slice(0, 3))}…(${path.length - 6} more)…${tail.startsWith("[") ? "" : "."}${tail}`;
  }
  let label = "";
  for (const segment of path) {
    if (typeof segment === "number") label += `[${segment}]`;
    else if (segment.length <= ECHO_LIMIT && isIdentifier(segment))
      label += label === "" ? segment : `.${segment}`;
    else label += `[${quote(String(segment))}]`;
  }
  return label === "" ? "the value" : label;
}

/** An expected kind as a message writes it: "a string", "a finite number", "any JSON value". */
export function expectedText(kind: string): string {
  return kind === "number" ? "a finite number" : kind === "json" ? "any JSON value" : withArticle(kind);
}

/** Expected kinds as a message lists them: "a string or an array", "a string, a finite number or an array". */
export function expectedList(kinds: readonly string[], text = expectedText): string {
  const items = kinds.map(text);
  const last = items.pop();
  return items.length === 0 ? `${last}` : `${items.join(", ")} or ${last}`;
}

/** The kinds of the values of an enumeration, each once, in order: `["string"]`. */
export function kindsOf(values: readonly unknown[]): Expected[] {
  const kinds: Expected[] = [];
  for (const value of values) {
    const kind = value === null ? "null" : typeof value;
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

/**
 * What was found, as the parameters of an issue carry it: its kind, and the value itself where a
 * message quotes it (see `describeFound`): a string cut and made safe as {@link safeText} makes it,
 * a finite number, a boolean.
 */
export function foundOf(value: unknown): {
  readonly received: Received;
  readonly value?: string | number | boolean;
} {
  const received = describeValue(value);
  if (typeof value === "string") return { received, value: safeText(value) };
  return received === "number" || received === "boolean"
    ? { received, value: value as number }
    : { received };
}

/** The parameters of a value that is none of `values` (an enumeration's), with what was found (as `foundOf`). */
export function oneOf(values: readonly Literal[], value: unknown): IssueParams["invalid_value"] {
  const received = describeValue(value);
  if (typeof value === "string") return { rule: "one_of", values, received, value: safeText(value) };
  return received === "number" || received === "boolean"
    ? { rule: "one_of", values, received, value: value as number }
    : { rule: "one_of", values, received };
}
