import type { EventContent, EventContentInput } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import type { StandardSchemaWithJsonSchema } from "./StandardSchema.js";

/**
 * The Standard Schema object of one event type's content, such as `messageTextContent` from
 * `messaging-events/standard`: its input is `EventContentInput<T>`, its output `EventContent<T>`
 * (what `StandardSchemaV1.InferOutput` gives), and it has the Standard JSON Schema converters.
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import type { EventContent } from "messaging-events/events";
 * import { type ContentStandardSchema, timerContent } from "messaging-events/standard";
 *
 * function firstMessage<T extends "s.timer" | "s.presence">(schema: ContentStandardSchema<T>, value: unknown) {
 *   const result = schema["~standard"].validate(value);
 *   return result.issues?.[0]?.message;
 * }
 * const running: EventContent<"s.timer"> = { status: "RUNNING", expires: "2030-01-01T00:00:00Z" };
 * console.log(firstMessage(timerContent, running)); // undefined
 * ```
 */
export type ContentStandardSchema<T extends EventType> = StandardSchemaWithJsonSchema<
  EventContentInput<T>,
  EventContent<T>
>;
