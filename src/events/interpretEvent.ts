import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import type { EventContent, MessagingEvent } from "./EventContent.js";
import { EventValidationError } from "./EventValidationError.js";
import { eventContentSchemas } from "./eventContentSchemas.js";
import { eventSchema } from "./eventSchema.js";
import { isEventType } from "./isEventType.js";
import { runContentSchema, unreadableResult } from "./runContentSchema.js";
import type { SafeParseResult } from "./safeParseEventContent.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";
import type { ValidationLimits } from "./ValidationLimits.js";

// The interpreted validation: the Zod schemas run as they are, their issues turned into the
// library's. The compiled validators must answer exactly as these do; tests compare the two.

/** @internal `safeParseEventContent` as Zod interprets the schemas. */
export function interpretEventContent(
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

/** @internal `safeParseEvent` as Zod interprets the schemas. */
export function interpretEvent(value: unknown, options?: ValidationLimits): SafeParseResult<MessagingEvent> {
  try {
    return parseEventObject(value, options);
  } catch (cause) {
    return unreadableResult("ERR_INVALID_EVENT", [], cause);
  }
}
function parseEventObject(
  value: unknown,
  options: ValidationLimits | undefined,
): SafeParseResult<MessagingEvent> {
  if (!isPlainObject(value)) {
    const error = new EventValidationError("ERR_INVALID_EVENT", undefined, [
      {
        code: "invalid_type",
        path: [],
        pointer: "",
        message: `the event must be an object with type and content, not ${withArticle(describeValue(value))}`,
      },
    ]);
    return { success: false, error };
  }
  let type: unknown;
  try {
    type = value.type;
  } catch {
    type = undefined;
  }
  if (!isEventType(type)) return { success: false, error: unknownEventTypeError(type, []) };
  const result = runContentSchema<MessagingEvent>(
    eventSchema,
    value,
    type,
    [],
    "ERR_INVALID_EVENT_CONTENT",
    options,
  );
  if (result.success || result.error.issues.every((issue) => issue.path[0] === "content")) return result;
  const { issues, omittedIssues } = result.error;
  return {
    success: false,
    error: new EventValidationError("ERR_INVALID_EVENT", type, issues, omittedIssues),
  };
}
