import type { MessagingEvent } from "./EventContent.js";
import { interpretEvent } from "./interpretEvent.js";
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
  return interpretEvent(value, options);
}
