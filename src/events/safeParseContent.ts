import type * as z from "zod/mini";
import { runContentSchema, unreadableResult } from "./runContentSchema.js";
import type { SafeParseResult } from "./SafeParseResult.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * Validates content against one content schema, with the library's own messages, codes and JSON
 * pointers (`/content/body`), and never throws. It is `safeParseEventContent` for when the type is
 * fixed: import the one schema you need (`messageTextContent`) and this function, and a bundler
 * keeps only that schema, not all 32. A schema's own `.safeParse` gives Zod's bare messages instead.
 *
 * The error's `eventType` is `undefined` (the schema does not name its type); limits apply as for
 * `safeParseEventContent`.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageTextContent, safeParseContent } from "messaging-events/events";
 *
 * const result = safeParseContent(messageTextContent, { body: 5 });
 * if (!result.success) console.log(result.error.issues[0]?.message); // "content.body must be a string, not a number"
 * ```
 */
export function safeParseContent<S extends z.core.$ZodType>(
  schema: S,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<z.output<S>> {
  try {
    return runContentSchema(schema, content, undefined, ["content"], "ERR_INVALID_EVENT_CONTENT", options);
  } catch (cause) {
    return unreadableResult("ERR_INVALID_EVENT_CONTENT", [], cause);
  }
}

/**
 * Validates content against one content schema and returns it typed, or throws the
 * `EventValidationError` that {@link safeParseContent} would return.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @throws {EventValidationError} when the content does not match the schema.
 *
 * @example
 * ```ts
 * import { parseContent, presenceContent } from "messaging-events/events";
 *
 * const presence = parseContent(presenceContent, { status: "AWAY" });
 * console.log(presence.status); // "AWAY"
 * ```
 */
export function parseContent<S extends z.core.$ZodType>(
  schema: S,
  content: unknown,
  options?: ValidationLimits,
): z.output<S> {
  const result = safeParseContent(schema, content, options);
  if (!result.success) throw result.error;
  return result.data;
}
