import type { MessagingEvent } from "./EventContent.js";
import { withStack } from "./EventValidationError.js";
import { safeParseEvent } from "./safeParseEvent.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * Validates a whole event, `{ type, content }`, and returns it typed, or throws an
 * {@link EventValidationError} (codes as for {@link safeParseEvent}).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @throws {EventValidationError} when the event, its type or its content is invalid.
 *
 * @example
 * ```ts
 * import { parseEvent } from "messaging-events/events";
 *
 * const event = parseEvent({ type: "s.message.text", content: { body: "Hello!" } });
 * if (event.type === "s.message.text") console.log(event.content.body);
 * ```
 */
export function parseEvent(value: unknown, options?: ValidationLimits): MessagingEvent {
  const result = safeParseEvent(value, options);
  if (!result.success) throw withStack(result.error, parseEvent);
  return result.data;
}
