import { checkEvent } from "./checkEvent.js";
import { contentCheckers } from "./compiledValidators.js";
import type { MessagingEvent } from "./EventContent.js";
import { asEventResult, eventTypeOf } from "./eventParts.js";
import type { EventType } from "./eventTypes.js";
import { type Checker, runCompiled, unreadable } from "./runCompiled.js";
import type { SafeParseResult } from "./SafeParseResult.js";
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

/** A type with the validator of whole events of that type. */
interface EventKind {
  readonly type: EventType;
  readonly check: Checker;
}

// Every type with its event validator, made once: a closure per call would cost as much as a small
// event, and one lookup answers whether the type is known.
const kinds: ReadonlyMap<unknown, EventKind> = /* @__PURE__ */ (() => {
  const map = new Map<unknown, EventKind>();
  for (const [type, content] of Object.entries(contentCheckers) as [EventType, Checker][]) {
    const check: Checker = (x, r) => checkEvent(x as Record<string, unknown>, r, type, content);
    map.set(type, { type, check });
  }
  return map;
})();

function parseEventObject(
  value: unknown,
  options: ValidationLimits | undefined,
): SafeParseResult<MessagingEvent> {
  const found = eventTypeOf(value, kinds);
  if ("success" in found) return found;
  const { type, check } = found;
  const result = runCompiled<MessagingEvent>(check, value, type, [], 0, "ERR_INVALID_EVENT_CONTENT", options);
  return asEventResult(result, type);
}
