import { isPlainObject } from "../internal/isPlainObject.js";
import { notAnObjectIssue } from "../internal/notAnObjectIssue.js";
import type { MessagingEvent } from "./EventContent.js";
import { validationError } from "./EventValidationError.js";
import type { EventType } from "./eventTypes.js";
import type { SafeParseResult } from "./SafeParseResult.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";

/**
 * @internal What `safeParseEvent` decides before validating the content: the type of an event, read
 * once and looked up in `known` (one lookup answers whether the type is known and what goes with
 * it); or the failure for a value that is no object or names no known type. A found value is never
 * a result object: callers tell the two apart by `"success" in found`.
 */
export function eventTypeOf<T extends object>(
  value: unknown,
  known: ReadonlyMap<unknown, T>,
): T | SafeParseResult<never> {
  if (!isPlainObject(value)) {
    const issue = notAnObjectIssue(value, "the event", "an object with type and content");
    return { success: false, error: validationError("ERR_INVALID_EVENT", undefined, [issue]) };
  }
  let type: unknown;
  try {
    type = value.type;
  } catch {
    type = undefined;
  }
  const found = known.get(type);
  if (found !== undefined) return found;
  return { success: false, error: unknownEventTypeError(type, []) };
}

/**
 * @internal A failed validation of an event as `ERR_INVALID_EVENT` when an issue lies outside its
 * content (an unknown member), as it is otherwise.
 */
export function asEventResult(
  result: SafeParseResult<MessagingEvent>,
  type: EventType,
): SafeParseResult<MessagingEvent> {
  if (result.success) return result;
  const { issues, omittedIssues } = result.error;
  let inContent = true;
  for (let i = 0; inContent && i < issues.length; i++) inContent = issues[i]!.path[0] === "content";
  if (inContent) return result;
  return { success: false, error: validationError("ERR_INVALID_EVENT", type, issues, omittedIssues) };
}
