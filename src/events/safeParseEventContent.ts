import * as z from "zod/mini";
import { pathLabel, quote } from "../internal/describe.js";
import { findLimitBreach, reasonOf } from "../internal/findLimitBreach.js";
import { makeIssue } from "../internal/issue.js";
import { normalizeLimits, withLimits } from "../internal/limits.js";
import { IssueCollector, toEventIssues } from "../internal/toEventIssues.js";
import type { EventContent } from "./EventContent.js";
import {
  EventValidationError,
  type EventValidationErrorCode,
  type EventValidationIssue,
} from "./EventValidationError.js";
import { eventContentSchemas } from "./eventContentSchemas.js";
import type { EventType } from "./eventTypes.js";
import { isEventType } from "./isEventType.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * The result of a `safeParse…` function: the typed data, or the error that says what is wrong.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { type SafeParseResult, safeParseEventContent } from "messaging-events/events";
 *
 * const result: SafeParseResult<{ status: string }> = safeParseEventContent("s.presence", { status: "AWAY" });
 * ```
 */
export type SafeParseResult<T> =
  | { readonly success: true; readonly data: T; readonly error?: undefined }
  | { readonly success: false; readonly data?: undefined; readonly error: EventValidationError };

/**
 * @internal Validates a value against a schema under the limits, turning every failure (a limit
 * reached, a throwing getter or proxy, anything) into an error value: never throws.
 */
export function runContentSchema<T>(
  schema: z.core.$ZodType,
  value: unknown,
  eventType: string | undefined,
  prefix: readonly (string | number)[],
  code: EventValidationErrorCode,
  options?: ValidationLimits,
): SafeParseResult<T> {
  const limits = normalizeLimits(options);
  const breach = findLimitBreach(value, limits);
  if (breach !== undefined) {
    const path = [...prefix, ...breach.path];
    const label = pathLabel(path);
    const [issueCode, message] =
      breach.code === "unreadable"
        ? (["unreadable", `${label} could not be read: ${quote(breach.reason)}`] as const)
        : breach.code === "circular"
          ? ([
              "not_json",
              `${label} must be a JSON value (a string, a finite number, a boolean, null, an array or a plain object), not a circular reference`,
            ] as const)
          : breach.code === "too_deep"
            ? (["too_deep", `${label} nests deeper than the limit of ${limits.maxDepth} levels`] as const)
            : ([
                "too_many_nodes",
                `${label} holds more than the limit of ${limits.maxNodes} values`,
              ] as const);
    return failure(code, eventType, [makeIssue(issueCode, path, message)], 0);
  }
  return withLimits(limits, () => {
    let result: ReturnType<typeof z.safeParse>;
    try {
      result = z.safeParse(schema, value);
    } catch (cause) {
      const issue = makeIssue(
        "unreadable",
        prefix,
        `${pathLabel(prefix)} could not be read: ${quote(reasonOf(cause))}`,
      );
      return failure(code, eventType, [issue], 0);
    }
    if (result.success) return { success: true, data: result.data as T };
    const collector = new IssueCollector(limits.maxIssues);
    toEventIssues(result.error.issues, value, prefix, collector);
    return failure(code, eventType, collector.issues, collector.omitted);
  });
}

function failure<T>(
  code: EventValidationErrorCode,
  eventType: string | undefined,
  issues: readonly EventValidationIssue[],
  omitted: number,
): SafeParseResult<T> {
  return { success: false, error: new EventValidationError(code, eventType, issues, omitted) };
}

/** @internal The result for a value that threw where nothing should: reported, never rethrown. */
export function unreadableResult<T>(
  code: EventValidationErrorCode,
  prefix: readonly (string | number)[],
  cause: unknown,
): SafeParseResult<T> {
  const issue = makeIssue(
    "unreadable",
    prefix,
    `${pathLabel(prefix)} could not be read: ${quote(reasonOf(cause))}`,
  );
  return failure(code, undefined, [issue], 0);
}

/**
 * Validates the content of an event of the given type, and never throws, whatever it is given. An
 * unknown type is a failure with code `ERR_UNKNOWN_EVENT_TYPE`, never a thrown error; invalid content is a
 * failure with code `ERR_INVALID_EVENT_CONTENT` whose issues point into the event
 * (`/content/options/0/value`). On success, `data` is the typed content.
 *
 * The input is never mutated. Strict objects return a copy without unknown members; objects that
 * allow additional properties return a copy that keeps them.
 *
 * Cost is bounded whatever the input: the value may nest at most 512 levels and hold at most
 * 1,000,000 values (a shared object counts each time it is reached), and at most the first 100
 * issues are reported, the rest counted in `error.omittedIssues`. Pass `options` to change these
 * limits (see {@link ValidationLimits}).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventContent } from "messaging-events/events";
 *
 * const result = safeParseEventContent("s.message.text", { body: "Hi", format: "x".repeat(101) });
 * if (!result.success) {
 *   console.log(result.error.issues[0]?.message); // "content.format must be at most 100 characters long, not 101"
 * }
 * ```
 */
export function safeParseEventContent<T extends EventType>(
  type: T,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<EventContent<T>>;
export function safeParseEventContent(
  type: unknown,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<EventContent>;
export function safeParseEventContent(
  type: unknown,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<EventContent> {
  try {
    if (!isEventType(type)) return { success: false, error: unknownEventTypeError(type, []) };
    return runContentSchema(
      eventContentSchemas[type],
      content,
      type,
      ["content"],
      "ERR_INVALID_EVENT_CONTENT",
      options,
    );
  } catch (cause) {
    return unreadableResult("ERR_INVALID_EVENT_CONTENT", [], cause);
  }
}
