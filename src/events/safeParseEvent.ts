import { checkEvent } from "./checkEvent.js";
import { contentCheckers } from "./compiledValidators.js";
import type { MessagingEvent } from "./EventContent.js";
import { asEventResult, eventTypeOf } from "./eventParts.js";
import type { EventType } from "./eventTypes.js";
import { type Checker, runCompiled, unreadable } from "./runCompiled.js";
import type { SafeParseResult } from "./safeParseEventContent.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * Validates a whole event, `{ type, content }`, and never throws, whatever it is given. The failure
 * codes are `ERR_UNKNOWN_EVENT_TYPE` (the type is not one of the 32), `ERR_INVALID_EVENT_CONTENT`
 * (the content does not match its type) and `ERR_INVALID_EVENT` (not an object, or members other
 * than `type` and `content`). On success, `data` is the typed {@link MessagingEvent}, which narrows on `type`.
 * Limits on size and nesting apply as for `safeParseEventContent`; `options` changes them.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEvent } from "messaging-events/events";
 *
 * const result = safeParseEvent(JSON.parse('{"type":"s.room.pin","content":{"value":true}}'));
 * if (result.success && result.data.type === "s.room.pin") console.log(result.data.content.value); // true
 * ```
 */
export function safeParseEvent(value: unknown, options?: ValidationLimits): SafeParseResult<MessagingEvent> {
  try {
    return parseEventObject(value, options);
  } catch (cause) {
    return unreadable("ERR_INVALID_EVENT", cause);
  }
}

// One checker per type, made on first use: a closure per call would cost as much as a small event.
const eventCheckers = /* @__PURE__ */ new Map<EventType, Checker>();

function eventChecker(type: EventType): Checker {
  let checker = eventCheckers.get(type);
  if (checker === undefined) {
    const content = contentCheckers[type];
    checker = (x, r) => checkEvent(x as Record<string, unknown>, r, type, content);
    eventCheckers.set(type, checker);
  }
  return checker;
}

function parseEventObject(
  value: unknown,
  options: ValidationLimits | undefined,
): SafeParseResult<MessagingEvent> {
  const found = eventTypeOf(value);
  if ("success" in found) return found;
  const { type, event } = found;
  const result = runCompiled<MessagingEvent>(
    eventChecker(type),
    event,
    type,
    [],
    0,
    "ERR_INVALID_EVENT_CONTENT",
    options,
  );
  return asEventResult(result, type);
}
