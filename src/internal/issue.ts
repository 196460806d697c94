import { hasUnsafeText } from "./describe.js";
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
 * a megabyte, say), or that holds a key with a character that could break or forge a log line (a
 * control character, a bidirectional override), is shortened to the nearest enclosing value, so that
 * neither the path nor the pointer can carry an unbounded or unsafe echo of the input. The message,
 * which quotes and escapes such keys, still names them.
 */
export function makeIssue(code: IssueCode, path: readonly (string | number)[], message: string): Issue {
  let located = path;
  for (let i = 0; i < located.length; i++) {
    const segment = located[i];
    if (typeof segment === "string" && hasUnsafeText(segment)) {
      located = located.slice(0, i);
      break;
    }
  }
  let pointer = jsonPointer(located);
  while (pointer.length > MAX_POINTER_LENGTH && located.length > 0) {
    located = located.slice(0, -1);
    pointer = jsonPointer(located);
  }
  return { code, path: located, pointer, message };
}
