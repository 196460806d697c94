import type { Guard } from "../internal/guardRuntime.js";
import { contentGuards } from "./compiledGuards.js";
import type { EventContent } from "./EventContent.js";
import type { EventType } from "./eventTypes.js";
import { runGuard } from "./runGuard.js";
// For the links in the documentation.
import type { safeParseEventContent } from "./safeParseEventContent.js";
import type { ValidationLimits } from "./ValidationLimits.js";

// The guard of each type, looked up once per call (the lookup answers whether the type is known).
const guards: ReadonlyMap<unknown, Guard> = /* @__PURE__ */ new Map(Object.entries(contentGuards));

/**
 * Tells whether `content` is valid content of an event of the given type, and never throws: the
 * verdict of {@link safeParseEventContent} (the same rules, the same limits, `false` for a type
 * that is not one of the 32) without its copy, its issues or its messages. It narrows `content` to
 * the type's content. A value that throws when read (a getter, a proxy) is not valid. Use it to
 * route or filter; use `safeParseEventContent` where you keep the content or report what is wrong
 * (its `data` is a copy that nothing can change afterwards; a guard copies nothing).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isEventContent } from "messaging-events/events";
 *
 * const content: unknown = JSON.parse('{"status":"RUNNING","expires":"2026-11-22T18:00:00Z"}');
 * if (isEventContent("s.timer", content) && content.status === "RUNNING") console.log(content.expires);
 * // "2026-11-22T18:00:00Z"
 * ```
 */
export function isEventContent<T extends EventType>(
  type: T,
  content: unknown,
  limits?: ValidationLimits,
): content is EventContent<T>;
export function isEventContent(
  type: unknown,
  content: unknown,
  limits?: ValidationLimits,
): content is EventContent;
export function isEventContent(
  type: unknown,
  content: unknown,
  limits?: ValidationLimits,
): content is EventContent {
  const guard = guards.get(type);
  return guard !== undefined && runGuard(guard, content, limits);
}
