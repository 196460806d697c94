import type { EventContent, MessagingEvent } from "./EventContent.js";
import { eventContentSchemas } from "./eventContentSchemas.js";
import { asEventResult, eventTypeOf } from "./eventParts.js";
import { eventSchema } from "./eventSchema.js";
import { type EventType, eventTypes } from "./eventTypes.js";
import { isEventType } from "./isEventType.js";
import { runContentSchema, unreadableResult } from "./runContentSchema.js";
import type { SafeParseResult } from "./SafeParseResult.js";
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

// Every type, for the lookup `safeParseEvent` makes too.
const kinds: ReadonlyMap<unknown, { readonly type: EventType }> = new Map(
  eventTypes.map((type) => [type, { type }]),
);

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
  const found = eventTypeOf(value, kinds);
  if ("success" in found) return found;
  const { type } = found;
  const result = runContentSchema<MessagingEvent>(
    eventSchema,
    value,
    type,
    [],
    "ERR_INVALID_EVENT_CONTENT",
    options,
  );
  return asEventResult(result, type);
}
