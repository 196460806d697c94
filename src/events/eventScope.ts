import type { EventType } from "./eventTypes.js";
import { isEventType } from "./isEventType.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";

/**
 * Where an event lives: `"Global"` events (`s.change`, `s.presence`) belong to no room; all others
 * are `"Room"` events.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventScope } from "messaging-events/events";
 *
 * const scope: EventScope = "Room";
 * ```
 */
export type EventScope = "Global" | "Room";

/**
 * Returns the scope of an event type (spec sections 2.3 and 6.1): `"Global"` for `s.change` and
 * `s.presence`, `"Room"` for every other type.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @throws {EventValidationError} with code `ERR_UNKNOWN_EVENT_TYPE` when `type` is not an event type.
 *
 * @example
 * ```ts
 * import { eventScope } from "messaging-events/events";
 *
 * eventScope("s.presence"); // "Global"
 * eventScope("s.message.text"); // "Room"
 * ```
 */
export function eventScope(type: EventType): EventScope {
  if (!isEventType(type)) throw unknownEventTypeError(type, []);
  return type === "s.change" || type === "s.presence" ? "Global" : "Room";
}
