import type { ValueKind } from "./detectKind.js";

/** One problem in a value, as printed: where (a JSON pointer from the value's root), what, and why. */
export interface ResultIssue {
  readonly pointer: string;
  readonly code: string;
  readonly message: string;
}

/**
 * The verdict on one value (or on one line that held no value). With `--format json` each is one
 * line of output: `{ file, line, index?, kind?, valid, code?, issues?, omittedIssues? }`.
 */
export interface ValueResult {
  /** The file as given, or `<stdin>`. */
  readonly file: string;
  /** The line the value starts on, from 1. */
  readonly line: number;
  /** The position in the array that held the value, when it was an element of one. */
  readonly index?: number;
  /** What it was validated as; absent for a line that is not JSON. */
  readonly kind?: ValueKind;
  readonly valid: boolean;
  /** The error's code: the library's (`ERR_INVALID_EVENT_CONTENT`…) or `ERR_MALFORMED_JSON`, `ERR_LINE_TOO_LONG`. */
  readonly code?: string;
  readonly issues?: readonly ResultIssue[];
  /** Issues found beyond the library's limit (100 by default), counted but not listed. */
  readonly omittedIssues?: number;
}
