import { contentCheckers } from "./compiledValidators.js";
import type { EventContent } from "./EventContent.js";
import type { EventType } from "./eventTypes.js";
import { type Checker, runContent } from "./runCompiled.js";
import type { SafeParseResult } from "./SafeParseResult.js";
import { unknownEventTypeError } from "./unknownEventTypeError.js";
import type { ValidationLimits } from "./ValidationLimits.js";

// The generated validator of each type, looked up once per call (the lookup answers whether the
// type is one of the 32 too).
const checkers: ReadonlyMap<unknown, Checker> = /* @__PURE__ */ new Map(Object.entries(contentCheckers));

/**
 * Validates the content of an event of the given type, and never throws, whatever it is given. An
 * unknown type is a failure with code `ERR_UNKNOWN_EVENT_TYPE`, never a thrown error; invalid content is a
 * failure with code `ERR_INVALID_EVENT_CONTENT` whose issues point into the event
 * (`/content/options/0/value`). On success, `data` is the typed content.
 *
 * `data` is a copy made while validating, so that what was validated is what you get: the input is
 * never mutated, and no getter, proxy or later change to the input can change `data`. Objects of a
 * fixed shape come back with their declared members; objects that allow more keep them; JSON members
 * are copied whole. A failure's `error` carries no stack trace. The validation runs code generated
 * from the schema (no Zod, no `eval`); `safeParseMessageTextContent` and its siblings give the same
 * result for one type in a smaller bundle.
 *
 * Cost is bounded whatever the input: the value may nest at most 512 levels and hold at most
 * 1,000,000 values (a shared object counts each time it is reached), and at most the first 100
 * issues are reported, the rest counted in `error.omittedIssues`. Pass `options` to change these
 * limits (see {@link ValidationLimits}).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventContent } from "messaging-events/events";
 *
 * const result = safeParseEventContent("s.message.text", { body: "Hi", format: "x".repeat(101) });
 * if (!result.success) {
 *   console.log(result.error.issues[0]?.message); // "content.format must be at most 100 characters long, not 101"
 * }
 * ```
 */
export function safeParseEventContent<T extends EventType>(
  type: T,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<EventContent<T>>;
export function safeParseEventContent(
  type: unknown,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<EventContent>;
export function safeParseEventContent(
  type: unknown,
  content: unknown,
  options?: ValidationLimits,
): SafeParseResult<EventContent> {
  const check = checkers.get(type);
  if (check === undefined) return { success: false, error: unknownEventTypeError(type, []) };
  return runContent(check, type as EventType, content, options);
}
