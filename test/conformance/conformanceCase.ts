import type { EventType, EventValidationIssueCode } from "../../src/events/index.js";

/** One row of the conformance table. `content` is plain JSON, so Ajv can check it too. */
export interface ConformanceCase {
  readonly type: EventType;
  /** What the row exercises, in words; unique within its type. */
  readonly name: string;
  readonly content: unknown;
  readonly valid: boolean;
  /** For an invalid row: an issue the error must contain. */
  readonly expect?: { readonly code: EventValidationIssueCode; readonly pointer: string };
  /** The DECISIONS.md ruling the row tests, if any. */
  readonly ruling?: number;
}

export const valid = (type: EventType, name: string, content: unknown, ruling?: number): ConformanceCase => ({
  type,
  name,
  content,
  valid: true,
  ...(ruling === undefined ? {} : { ruling }),
});

export const invalid = (
  type: EventType,
  name: string,
  content: unknown,
  code: EventValidationIssueCode,
  pointer: string,
  ruling?: number,
): ConformanceCase => ({
  type,
  name,
  content,
  valid: false,
  expect: { code, pointer },
  ...(ruling === undefined ? {} : { ruling }),
});
