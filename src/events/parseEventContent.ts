import type { EventContent } from "./EventContent.js";
import { withStack } from "./EventValidationError.js";
import type { EventType } from "./eventTypes.js";
import { safeParseEventContent } from "./safeParseEventContent.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * Validates the content of an event of the given type and returns it typed, or throws an
 * {@link EventValidationError}: code `ERR_UNKNOWN_EVENT_TYPE` for an unknown type,
 * `ERR_INVALID_EVENT_CONTENT` for invalid content, with every issue and its JSON pointer.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @throws {EventValidationError} when the type is unknown or the content is invalid.
 *
 * @example
 * ```ts
 * import { parseEventContent } from "messaging-events/events";
 *
 * const timer = parseEventContent("s.timer", { status: "RUNNING", expires: "2026-11-22T18:00:00+01:00" });
 * if (timer.status === "RUNNING") console.log(timer.expires);
 * ```
 */
export function parseEventContent<T extends EventType>(
  type: T,
  content: unknown,
  options?: ValidationLimits,
): EventContent<T>;
export function parseEventContent(type: unknown, content: unknown, options?: ValidationLimits): EventContent;
export function parseEventContent(type: unknown, content: unknown, options?: ValidationLimits): EventContent {
  const result = safeParseEventContent(type, content, options);
  if (!result.success) throw withStack(result.error, parseEventContent);
  return result.data;
}
