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
  /** The reading the row tests, if any: an anchor of docs/readings.md. */
  readonly reading?: string;
}

export const valid = (
  type: EventType,
  name: string,
  content: unknown,
  reading?: string,
): ConformanceCase => ({
  type,
  name,
  content,
  valid: true,
  ...(reading === undefined ? {} : { reading }),
});

export const invalid = (
  type: EventType,
  name: string,
  content: unknown,
  code: EventValidationIssueCode,
  pointer: string,
  reading?: string,
): ConformanceCase => ({
  type,
  name,
  content,
  valid: false,
  expect: { code, pointer },
  ...(reading === undefined ? {} : { reading }),
});
