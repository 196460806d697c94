import { type EventType, eventTypes } from "./eventTypes.js";

const known: ReadonlySet<unknown> = /* @__PURE__ */ new Set(eventTypes);

/**
 * Tells whether a value is the name of one of the 32 event types. Never throws.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isEventType } from "messaging-events/events";
 *
 * isEventType("s.timer"); // true
 * isEventType("s.message.delete"); // false: a webhook type, not an event type
 * ```
 */
export function isEventType(value: unknown): value is EventType {
  return known.has(value);
}
