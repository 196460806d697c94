import type { Guard } from "../internal/guardRuntime.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { contentGuards } from "./compiledGuards.js";
import type { MessagingEvent } from "./EventContent.js";
import { runGuard } from "./runGuard.js";
// For the links in the documentation.
import type { safeParseEvent } from "./safeParseEvent.js";
import type { ValidationLimits } from "./ValidationLimits.js";

// The guard of whole events of each type, made once, found by the type (as `safeParseEvent` finds
// its validator): the type, then the content one level down, then no member but these two.
const guards: ReadonlyMap<unknown, Guard> = /* @__PURE__ */ (() => {
  const map = new Map<unknown, Guard>();
  for (const [type, content] of Object.entries(contentGuards)) {
    map.set(type, (x, b, d) => {
      const event = x as Record<string, unknown>;
      if (event.type !== type || !content(event.content, b, d + 1)) return false;
      for (const key in event) {
        b.nodes--;
        if (key !== "type" && key !== "content") return false;
      }
      return true;
    });
  }
  return map;
})();

/**
 * Tells whether a value is a valid event, `{ type, content }`, and never throws: the verdict of
 * {@link safeParseEvent} (the same rules, the same limits) without its copy, its issues or its
 * messages. It narrows the value to a {@link MessagingEvent}, which narrows on `type`. A value
 * that throws when read (a getter, a proxy) is not valid.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isEvent } from "messaging-events/events";
 *
 * const event: unknown = JSON.parse('{"type":"s.room.pin","content":{"value":true}}');
 * if (isEvent(event) && event.type === "s.room.pin") console.log(event.content.value); // true
 * ```
 */
export function isEvent(value: unknown, limits?: ValidationLimits): value is MessagingEvent {
  if (!isPlainObject(value)) return false;
  let type: unknown;
  try {
    type = value.type;
  } catch {
    return false;
  }
  const guard = guards.get(type);
  return guard !== undefined && runGuard(guard, value, limits);
}
