import { type EventValidationIssueCode, isEventValidationError } from "../events/EventValidationError.js";
import { toJsonPointer } from "../events/toJsonPointer.js";

/**
 * One JSON:API error object, as {@link toJsonApiErrors} writes it.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { JsonApiError } from "messaging-events/jsonapi";
 *
 * const error: JsonApiError = {
 *   status: "422",
 *   code: "too_long",
 *   title: "Too long",
 *   detail: "content.format must be at most 100 characters long, not 101",
 *   source: { pointer: "/data/attributes/content/format" },
 * };
 * ```
 */
export interface JsonApiError {
  /** The HTTP status, as a string: `"422"` for validation failures. */
  readonly status: string;
  /** The issue code (`too_long`, `required`, …), stable across releases. */
  readonly code: string;
  /** A short summary of the kind of problem, the same for every occurrence of the code. */
  readonly title: string;
  /** What is wrong and what was expected, for a person to act on. */
  readonly detail: string;
  /** Where: an RFC 6901 pointer into the request document. */
  readonly source?: { readonly pointer: string };
}

const titles: Record<EventValidationIssueCode, string> = {
  required: "Missing member",
  invalid_type: "Wrong type",
  invalid_value: "Value not allowed",
  invalid_format: "Invalid format",
  too_long: "Too long",
  too_short: "Too short",
  too_many_items: "Too many entries",
  too_few_items: "Too few entries",
  unknown_property: "Member not allowed",
  not_json: "Not a JSON value",
  exactly_one_of: "Conflicting or missing members",
  boolean_options: "Invalid boolean options",
  no_matching_variant: "No matching alternative",
  unknown_event_type: "Unknown event type",
  unreadable: "Unreadable value",
};

/**
 * Turns a validation failure into a JSON:API error document for an HTTP 422 response: one error
 * object per issue, with `status` `"422"`, the issue `code`, a `title`, a `detail` a person can act
 * on, and `source.pointer` into the request document (`/data/attributes/content/options/0/value`).
 * Issues found by `parseEventContent` or `parseEvent` are placed under `/data/attributes`; those
 * found by `parseEventDocument` already start at the document root. Anything that is not an
 * `EventValidationError` becomes one `"500"` error that reveals nothing about it.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventContent } from "messaging-events/events";
 * import { toJsonApiErrors } from "messaging-events/jsonapi";
 *
 * const result = safeParseEventContent("s.presence", { status: "BUSY" });
 * if (!result.success) {
 *   const body = toJsonApiErrors(result.error);
 *   console.log(body.errors[0]?.source?.pointer); // "/data/attributes/content/status"
 * }
 * ```
 */
export function toJsonApiErrors(error: unknown): { errors: JsonApiError[] } {
  if (!isEventValidationError(error)) {
    return {
      errors: [
        {
          status: "500",
          code: "internal_error",
          title: "Internal error",
          detail: "The request could not be processed.",
        },
      ],
    };
  }
  return {
    errors: error.issues.map((issue) => ({
      status: "422",
      code: issue.code,
      title: titles[issue.code] ?? "Invalid value",
      detail: issue.message,
      source: {
        pointer: issue.path[0] === "data" ? issue.pointer : toJsonPointer(issue.path, "/data/attributes"),
      },
    })),
  };
}
