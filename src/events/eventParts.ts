import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import type { MessagingEvent } from "./EventContent.js";
import { validationError } from "./EventValidationError.js";
import type { EventType } from "./eventTypes.js";
import { isEventType } from "./isEventType.js";
import type { SafeParseResult } from "./safeParseEventContent.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";

/**
 * @internal The type of an event, read once, or the failure for a value that is no object or
 * names no known type: what `safeParseEvent` decides before validating the content.
 */
export function eventTypeOf(
  value: unknown,
): { readonly type: EventType; readonly event: Record<string, unknown> } | SafeParseResult<never> {
  if (!isPlainObject(value)) {
    const message = `the event must be an object with type and content, not ${withArticle(describeValue(value))}`;
    const issue = { code: "invalid_type", path: [], pointer: "", message } as const;
    return { success: false, error: validationError("ERR_INVALID_EVENT", undefined, [issue]) };
  }
  let type: unknown;
  try {
    type = value.type;
  } catch {
    type = undefined;
  }
  if (!isEventType(type)) return { success: false, error: unknownEventTypeError(type, []) };
  return { type, event: value };
}

/**
 * @internal A failed validation of an event as `ERR_INVALID_EVENT` when an issue lies outside its
 * content (an unknown member), as it is otherwise.
 */
export function asEventResult(
  result: SafeParseResult<MessagingEvent>,
  type: EventType,
): SafeParseResult<MessagingEvent> {
  if (result.success || result.error.issues.every((issue) => issue.path[0] === "content")) return result;
  const { issues, omittedIssues } = result.error;
  return { success: false, error: validationError("ERR_INVALID_EVENT", type, issues, omittedIssues) };
}
