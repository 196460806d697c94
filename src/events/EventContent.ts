import type * as z from "zod/mini";
import type { eventContentSchemas } from "./eventContentSchemas.js";
import type { EventType } from "./eventTypes.js";

/**
 * The content schema type of each event type: `EventContentSchemas["s.timer"]` is the type of
 * `timerContent`.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventContentSchemas } from "messaging-events/events";
 *
 * type TimerSchema = EventContentSchemas["s.timer"];
 * ```
 */
export type EventContentSchemas = typeof eventContentSchemas;

/**
 * The validated content of an event type, as the schemas return it. `EventContent<"s.timer">` is
 * `{ status: "RUNNING"; expires: string } | { status: "CANCELLED" | "EXPIRED" }`. Without a type
 * argument, the union of all contents.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventContent } from "messaging-events/events";
 *
 * function describeTimer(timer: EventContent<"s.timer">): string {
 *   return timer.status === "RUNNING" ? `runs until ${timer.expires}` : timer.status.toLowerCase();
 * }
 * ```
 */
export type EventContent<T extends EventType = EventType> = z.output<EventContentSchemas[T]>;

/**
 * The content an event type accepts as input, before validation. For these schemas it is the same
 * shape as {@link EventContent}; use it to type what you are about to validate or send.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventContentInput } from "messaging-events/events";
 *
 * const draft: EventContentInput<"s.message.text"> = { body: "Hello!" };
 * ```
 */
export type EventContentInput<T extends EventType = EventType> = z.input<EventContentSchemas[T]>;

/**
 * An event: its `type` and its typed `content`. `MessagingEvent<"s.form">` is
 * `{ type: "s.form"; content: EventContent<"s.form"> }`; `MessagingEvent` alone is the discriminated union
 * over all 32 types, which narrows on `type`.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { MessagingEvent } from "messaging-events/events";
 *
 * function summary(event: MessagingEvent): string {
 *   if (event.type === "s.message.text") return event.content.body;
 *   return event.type;
 * }
 * ```
 */
export type MessagingEvent<T extends EventType = EventType> = {
  [K in T]: { type: K; content: EventContent<K> };
}[T];
