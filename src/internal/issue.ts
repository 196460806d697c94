import { jsonPointer } from "./jsonPointer.js";

/** The kinds of problem the library reports; the public, documented union is `EventValidationIssueCode`. */
export type IssueCode =
  | "required"
  | "invalid_type"
  | "invalid_value"
  | "invalid_format"
  | "too_long"
  | "too_short"
  | "too_many_items"
  | "too_few_items"
  | "unknown_property"
  | "not_json"
  | "exactly_one_of"
  | "boolean_options"
  | "no_matching_variant"
  | "unknown_event_type"
  | "unreadable"
  | "too_deep"
  | "too_many_nodes";

/** One problem, located: the shape of the public `EventValidationIssue`. */
export interface Issue {
  readonly code: IssueCode;
  readonly path: readonly (string | number)[];
  readonly pointer: string;
  readonly message: string;
}

/** The longest pointer an issue carries; a longer one points at the nearest enclosing value instead. */
export const MAX_POINTER_LENGTH = 256;

/**
 * An issue at `path`. A path whose pointer would be longer than {@link MAX_POINTER_LENGTH} (a key of
 * a megabyte, say) is shortened to the nearest enclosing value, so that neither the path nor the
 * pointer can carry an unbounded echo of the input.
 */
export function makeIssue(code: IssueCode, path: readonly (string | number)[], message: string): Issue {
  let located = path;
  let pointer = jsonPointer(located);
  while (pointer.length > MAX_POINTER_LENGTH && located.length > 0) {
    located = located.slice(0, -1);
    pointer = jsonPointer(located);
  }
  return { code, path: located, pointer, message };
}
