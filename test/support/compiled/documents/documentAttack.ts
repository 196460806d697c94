/**
 * What the hostile suite of the document parsers checks of every result: it returns (a `safe…`
 * parser never throws, its `parse…` twin throws only an `EventValidationError`), its output is
 * bounded and safe to log, its `data` shares no object with the input, and, where the reference
 * answers, it answers the same.
 */
import { types } from "node:util";
import { expect } from "vitest";
import { EventValidationError, type SafeParseResult } from "../../../../src/events/index.js";
import { interpretEventDocument } from "../../../../src/jsonapi/interpretEventDocument.js";
import {
  type DocumentParseOptions,
  parseEventDocument,
  parseEventResource,
  safeParseEventDocument,
  safeParseEventResource,
} from "../../../../src/jsonapi/parseEventDocument.js";
import { canonical, reachableObjects } from "../snapshot.js";

export type Which = "document" | "resource";

// The options are typed; a hostile caller passes anything.
const asOptions = (options: unknown) => options as DocumentParseOptions | undefined;

/** A document parser and its throwing twin and reference, by the kind of document. */
export interface DocumentEntry {
  readonly which: Which;
  readonly safe: (value: unknown, options?: unknown) => SafeParseResult<unknown>;
  readonly parse: (value: unknown, options?: unknown) => unknown;
  readonly reference: (value: unknown, options?: unknown) => SafeParseResult<unknown>;
}

export const documentEntries: readonly DocumentEntry[] = [
  {
    which: "document",
    safe: (value, options) => safeParseEventDocument(value, asOptions(options)),
    parse: (value, options) => parseEventDocument(value, asOptions(options)),
    reference: (value, options) => interpretEventDocument(value, "document", asOptions(options)),
  },
  {
    which: "resource",
    safe: (value, options) => safeParseEventResource(value, asOptions(options)),
    parse: (value, options) => parseEventResource(value, asOptions(options)),
    reference: (value, options) => interpretEventDocument(value, "resource", asOptions(options)),
  },
];

// Characters that would forge or hide a log line, and lone surrogates; "\n" only separates the
// listed problems of a message, so it is checked in each issue's message instead.
export const unsafe =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** More than 40 characters of the input's "x…" strings or "k…" keys. */
const longEcho = /x{41}|k{41}/;

/** The objects a test input is made of (proxies excepted, which are not walked). */
export function objectsOf(value: unknown): Set<object> {
  const out = new Set<object>();
  const visit = (node: unknown, depth: number) => {
    if (typeof node !== "object" || node === null || out.has(node) || depth > 64 || out.size > 10_000) return;
    out.add(node);
    // A proxy is not walked, nor a typed array or String object (millions of indexed members).
    if (types.isProxy(node) || ArrayBuffer.isView(node) || node instanceof String) return;
    if (Array.isArray(node) && node.length > 1000) return;
    for (const key of Object.keys(node)) {
      const descriptor = Object.getOwnPropertyDescriptor(node, key);
      if (descriptor !== undefined && "value" in descriptor) visit(descriptor.value, depth + 1);
    }
  };
  visit(value, 0);
  return out;
}

/** The promises of every result, whatever the input: shape, bounded and safe output, a copy for data. */
export function expectSaneResult(result: SafeParseResult<unknown>, inputObjects: ReadonlySet<object>): void {
  expect(typeof result.success).toBe("boolean");
  if (result.success) {
    for (const object of reachableObjects(result.data)) expect(inputObjects.has(object)).toBe(false);
    return;
  }
  const { error } = result;
  expect(error).toBeInstanceOf(EventValidationError);
  expect(error.issues.length).toBeGreaterThan(0);
  expect(error.issues.length).toBeLessThanOrEqual(100);
  expect(error.message.length).toBeLessThan(6000);
  expect(error.message).not.toMatch(unsafe);
  expect(error.message).not.toMatch(longEcho);
  if (error.eventType !== undefined) {
    expect(error.eventType.length).toBeLessThanOrEqual(40 * 6 + 1);
    expect(error.eventType).not.toMatch(unsafe);
  }
  for (const issue of error.issues) {
    expect(typeof issue.code).toBe("string");
    expect(issue.message).not.toMatch(unsafe);
    expect(issue.message).not.toMatch(/\n/);
    expect(issue.message).not.toMatch(longEcho);
    expect(issue.message.length).toBeLessThan(600);
    expect(issue.pointer.length).toBeLessThanOrEqual(256);
    expect(issue.pointer).not.toMatch(unsafe);
    for (const segment of issue.path) {
      expect(String(segment)).not.toMatch(unsafe);
      expect(String(segment).length).toBeLessThanOrEqual(256);
    }
  }
}

/**
 * Runs the safe parser of `entry` (which must return) and, unless `twin` is false, its throwing
 * twin (which must return data where the safe one succeeds, and otherwise throw an
 * `EventValidationError`), with a guard against hangs; returns the safe result.
 */
export function attack(
  entry: DocumentEntry,
  make: () => unknown,
  options?: unknown,
  twin = true,
): SafeParseResult<unknown> {
  const input = make();
  const start = performance.now();
  const result = entry.safe(input, options);
  expect(performance.now() - start, "one call took five seconds or more (a hang)").toBeLessThan(5000);
  expectSaneResult(result, objectsOf(input));
  if (!twin) return result;
  let thrown: unknown;
  let returned: unknown;
  try {
    returned = entry.parse(make(), options);
  } catch (error) {
    thrown = error;
  }
  if (result.success) expect(thrown).toBeUndefined();
  else {
    expect(thrown).toBeInstanceOf(EventValidationError);
    expect(returned).toBeUndefined();
  }
  return result;
}

/** What the contract with the reference compares of a result. */
export function comparable(result: SafeParseResult<unknown>): unknown {
  if (result.success) {
    try {
      return { success: true, data: canonical(result.data) };
    } catch {
      // The reference returns a JSON member as given (a proxy stays one): only its verdict counts.
      return { success: true, data: "unreadable" };
    }
  }
  const { error } = result;
  return {
    success: false,
    code: error.code,
    eventType: error.eventType,
    message: error.message,
    omittedIssues: error.omittedIssues,
    issues: error.issues.map(({ code, path, pointer, message }) => ({ code, path, pointer, message })),
  };
}

/** Compiled against interpreted on fresh inputs from `make`. */
export function expectSameAsReference(entry: DocumentEntry, make: () => unknown, options?: unknown): void {
  const expected = comparable(entry.reference(make(), options)) as { success: boolean; data?: unknown };
  const actual = comparable(entry.safe(make(), options));
  if (expected.success && expected.data === "unreadable")
    expect((actual as { success: boolean }).success, entry.which).toBe(true);
  else expect(actual, entry.which).toStrictEqual(expected);
}

/** Runs `work` with `key` as an enumerable member of every object; always cleans up. */
export function polluted(key: string, value: unknown, work: () => void): void {
  (Object.prototype as Record<string, unknown>)[key] = value;
  try {
    work();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
  expect(key in {}).toBe(false);
}
