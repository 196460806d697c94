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

// The parameters each issue's message is made from. The public, documented forms are in
// src/events/EventValidationIssueParams.ts; a type test holds the two equal.

/** What a value was expected to be (public: `EventValidationExpected`). */
export type Expected =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "null"
  | "object"
  | "array"
  | "json"
  | "link"
  | "url"
  | "resource_identifier"
  | "relationship"
  | (string & {});

/** What a value was found to be (public: `EventValidationReceived`). */
export type Received =
  | "string"
  | "number"
  | "boolean"
  | "null"
  | "undefined"
  | "object"
  | "array"
  | "NaN"
  | "Infinity"
  | "-Infinity"
  | "bigint"
  | "symbol"
  | "function"
  | "circular"
  | (string & {});

/** A value an enumeration allows (public: `EventValidationLiteral`). */
export type Literal = string | number | boolean | null;

/** The parameters of each code's issue (public: `EventValidationIssueParams`). */
export interface IssueParams {
  readonly required: { readonly expected: readonly Expected[]; readonly values?: readonly Literal[] };
  readonly invalid_type: { readonly expected: Expected; readonly received: Received };
  readonly invalid_value:
    | {
        readonly rule: "one_of";
        readonly values: readonly Literal[];
        readonly received: Received;
        readonly value?: string | number | boolean;
      }
    | { readonly rule: "not_blank" }
    | {
        readonly rule: "idempotency_key";
        readonly received: Received;
        readonly value?: string | number | boolean;
      }
    | { readonly rule: "field_name" }
    | { readonly rule: "other" };
  readonly invalid_format: {
    readonly format: "date-time" | (string & {});
    readonly received: Received;
    readonly value?: string;
  };
  readonly too_long: { readonly maximum: number; readonly length?: number };
  readonly too_short: { readonly minimum: number };
  readonly too_many_items: { readonly maximum: number; readonly exact: boolean; readonly length?: number };
  readonly too_few_items: { readonly minimum: number; readonly exact: boolean; readonly length?: number };
  readonly unknown_property: { readonly key: string };
  readonly not_json: { readonly received: Received };
  readonly exactly_one_of: { readonly keys: readonly string[]; readonly present: number };
  readonly boolean_options: { readonly missing: "true" | "false" };
  readonly no_matching_variant: { readonly expected: readonly Expected[]; readonly received: Received };
  readonly unknown_event_type: {
    readonly received: Received;
    readonly type?: string;
    readonly suggestion?: string;
  };
  readonly unreadable: { readonly reason: string };
  readonly too_deep: { readonly maximum: number };
  readonly too_many_nodes: { readonly maximum: number };
}

/** One problem of one code, located, with the parameters of its message. */
export interface IssueOf<C extends IssueCode> {
  readonly code: C;
  readonly path: readonly (string | number)[];
  readonly pointer: string;
  readonly message: string;
  readonly params: IssueParams[C];
}

/** One problem, located: the shape of the public `EventValidationIssue`. */
export type Issue = { [C in IssueCode]: IssueOf<C> }[IssueCode];

/** The longest pointer an issue carries; a longer one points at the nearest enclosing value instead. */
export const MAX_POINTER_LENGTH = 256;

/**
 * An issue at `path`. A path whose pointer would be longer than {@link MAX_POINTER_LENGTH} (a key of
 * a megabyte, say), or that holds a key with a character that could break or forge a log line (a
 * control character, a bidirectional override), is shortened to the nearest enclosing value, so that
 * neither the path nor the pointer can carry an unbounded or unsafe echo of the input. The message,
 * which quotes and escapes such keys, still names them. A `known` pointer (the compiled validators
 * write short, safe ones as they go) is taken as it is.
 */
export function makeIssue<C extends IssueCode>(
  code: C,
  path: readonly (string | number)[],
  message: string,
  params: IssueParams[C],
  known?: string,
): Issue {
  let located = path;
  let pointer = known;
  if (pointer === undefined) {
    for (let i = 0; i < located.length; i++) {
      const segment = located[i];
      if (typeof segment === "string" && hasUnsafeText(segment)) {
        located = located.slice(0, i);
        break;
      }
    }
    pointer = jsonPointer(located);
    while (pointer.length > MAX_POINTER_LENGTH && located.length > 0) {
      located = located.slice(0, -1);
      pointer = jsonPointer(located);
    }
  }
  return { code, path: located, pointer, message, params } as IssueOf<C> as Issue;
}
