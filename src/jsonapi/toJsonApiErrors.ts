import { type EventValidationIssueCode, isEventValidationError } from "../events/EventValidationError.js";
import { toJsonPointer } from "../events/toJsonPointer.js";
import {
  type EventAttributeNames,
  type JsonApiOptions,
  resolveAttributeNames,
} from "./eventAttributeNames.js";

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
  too_deep: "Nested too deeply",
  too_many_nodes: "Too many values",
};

/** The largest error document {@link toJsonApiErrors} writes, in characters of its JSON. */
const MAX_DOCUMENT_LENGTH = 64 * 1024;

const internalError: JsonApiError = {
  status: "500",
  code: "internal_error",
  title: "Internal error",
  detail: "The request could not be processed.",
};

/**
 * Turns a validation failure into a JSON:API error document for an HTTP 422 response: one error
 * object per issue, with `status` `"422"`, the issue `code`, a `title`, a `detail` a person can act
 * on, and `source.pointer` into the request document (`/data/attributes/content/options/0/value`).
 * Issues found by `parseEventContent` or `parseEvent` are placed under `/data/attributes` (`type`
 * becomes the event type attribute, `eventType` unless `options.attributeNames` says otherwise);
 * those found by `parseEventDocument` already start at the document root. Anything that is not an
 * `EventValidationError` becomes one `"500"` error that reveals nothing about it.
 *
 * The document stays under 64 KB whatever the failure: when issues were left out (the validation
 * limit, or this size), `meta.omittedErrors` says how many. It never throws, whatever it is given.
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
export function toJsonApiErrors(
  error: unknown,
  options?: JsonApiOptions,
): {
  errors: JsonApiError[];
  meta?: { omittedErrors: number };
} {
  try {
    const names = resolveAttributeNames(options);
    if (!isEventValidationError(error)) return { errors: [internalError] };
    const issues: unknown = error.issues;
    if (!Array.isArray(issues)) return { errors: [internalError] };
    const declared = error.omittedIssues;
    let omitted = typeof declared === "number" && declared > 0 ? declared : 0;
    const errors: JsonApiError[] = [];
    // Room for the envelope and the count of what was left out.
    let length = 64;
    for (const issue of issues) {
      const item = toErrorObject(issue, names);
      const size = item === undefined ? 0 : JSON.stringify(item).length + 1;
      if (item === undefined || length + size > MAX_DOCUMENT_LENGTH) {
        omitted++;
        continue;
      }
      length += size;
      errors.push(item);
    }
    if (errors.length === 0) return { errors: [internalError] };
    return omitted > 0 ? { errors, meta: { omittedErrors: omitted } } : { errors };
  } catch {
    return { errors: [internalError] };
  }
}

/** Where an issue of an event (`["content", "body"]`) lies in a request document. */
function documentPointer(path: readonly unknown[], names: EventAttributeNames): string {
  const [head, ...rest] = path;
  const member = head === "type" ? names.eventType : head === "content" ? names.content : head;
  return toJsonPointer([member as PropertyKey, ...(rest as PropertyKey[])], "/data/attributes");
}

/** One error object from an issue, or `undefined` for something that is not one. */
function toErrorObject(issue: unknown, names: EventAttributeNames): JsonApiError | undefined {
  const { code, message, pointer, path } = (issue ?? {}) as Partial<Record<string, unknown>>;
  if (typeof code !== "string" || typeof message !== "string" || typeof pointer !== "string")
    return undefined;
  if (!Array.isArray(path)) return undefined;
  return {
    status: "422",
    code,
    title: Object.hasOwn(titles, code) ? titles[code as EventValidationIssueCode] : "Invalid value",
    detail: message,
    // An issue of the whole value (a body that is an array, a number, null) points at the whole
    // document; one from within `data` is already a document's; one of an event, into its attributes.
    source: { pointer: path.length === 0 || path[0] === "data" ? pointer : documentPointer(path, names) },
  };
}
