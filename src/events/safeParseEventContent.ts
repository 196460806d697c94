import * as z from "zod/mini";
import { pathLabel } from "../internal/describe.js";
import { toEventIssues } from "../internal/toEventIssues.js";
import type { EventContent } from "./EventContent.js";
import { EventValidationError, type EventValidationErrorCode } from "./EventValidationError.js";
import { eventContentSchemas } from "./eventContentSchemas.js";
import type { EventType } from "./eventTypes.js";
import { isEventType } from "./isEventType.js";
import { toJsonPointer } from "./toJsonPointer.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";

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

/** @internal Validates content against a schema, turning any failure, even a throwing getter, into an error value. */
export function runContentSchema<T>(
  schema: z.core.$ZodType,
  value: unknown,
  eventType: string | undefined,
  prefix: readonly (string | number)[],
  code: EventValidationErrorCode,
): SafeParseResult<T> {
  let result: ReturnType<typeof z.safeParse>;
  try {
    result = z.safeParse(schema, value);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = new EventValidationError(code, eventType, [
      {
        code: "unreadable",
        path: prefix,
        pointer: toJsonPointer(prefix),
        message: `${pathLabel(prefix)} could not be read: ${reason}`,
      },
    ]);
    return { success: false, error };
  }
  if (result.success) return { success: true, data: result.data as T };
  const issues = toEventIssues(result.error.issues, value, prefix);
  return { success: false, error: new EventValidationError(code, eventType, issues) };
}

/**
 * Validates the content of an event of the given type, and never throws, whatever it is given. An
 * unknown type is a failure with code `ERR_UNKNOWN_EVENT_TYPE` (ruling 10); invalid content is a
 * failure with code `ERR_INVALID_EVENT_CONTENT` whose issues point into the event
 * (`/content/options/0/value`). On success, `data` is the typed content.
 *
 * The input is never mutated. Strict objects return a copy without unknown members; objects that
 * allow additional properties return a copy that keeps them.
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
): SafeParseResult<EventContent<T>>;
export function safeParseEventContent(type: unknown, content: unknown): SafeParseResult<EventContent>;
export function safeParseEventContent(type: unknown, content: unknown): SafeParseResult<EventContent> {
  if (!isEventType(type)) return { success: false, error: unknownEventTypeError(type, []) };
  return runContentSchema(eventContentSchemas[type], content, type, ["content"], "ERR_INVALID_EVENT_CONTENT");
}
