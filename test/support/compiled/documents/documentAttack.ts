/**
 * What the hostile suite of the document parsers checks of every result: it returns (a `safe…`
 * parser never throws, its `parse…` twin throws only an `EventValidationError`), its output is
 * bounded and safe to log, its `data` shares no object with the input, and, where the reference
 * answers, it answers the same.
 */
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
import { comparable, expectSaneResult, objectsOf } from "../resultChecks.js";

export { comparable, expectSaneResult, objectsOf, polluted, unsafe } from "../resultChecks.js";

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

/** Compiled against interpreted on fresh inputs from `make`. */
export function expectSameAsReference(entry: DocumentEntry, make: () => unknown, options?: unknown): void {
  const expected = comparable(entry.reference(make(), options)) as { success: boolean; data?: unknown };
  const actual = comparable(entry.safe(make(), options));
  if (expected.success && expected.data === "unreadable")
    expect((actual as { success: boolean }).success, entry.which).toBe(true);
  else expect(actual, entry.which).toStrictEqual(expected);
}
