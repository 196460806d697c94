import * as z from "zod/mini";
import type { EventContentSchemas } from "./EventContent.js";
import type { EventType, eventTypes } from "./eventTypes.js";
import { eventVariants } from "./eventUnion.js";

/**
 * The Zod schema type of one `{ type, content }` variant of {@link eventSchema}: a strict object
 * with a literal `type` and that type's content schema.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventVariantSchema } from "messaging-events/events";
 * import type * as z from "zod/mini";
 *
 * type TimerEvent = z.infer<EventVariantSchema<"s.timer">>;
 * const event: TimerEvent = { type: "s.timer", content: { status: "EXPIRED" } };
 * ```
 */
export type EventVariantSchema<T extends EventType> = z.ZodMiniObject<
  { type: z.ZodMiniLiteral<T>; content: EventContentSchemas[T] },
  z.core.$strict
>;

/**
 * The schema of a whole event, `{ type, content }`: a discriminated union on `type` over all 32
 * event types, each checking `content` with its type's schema. No other members are allowed.
 * Compose it into your own schemas, or use {@link parseEvent} for the library's readable errors.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { eventSchema } from "messaging-events/events";
 *
 * const result = eventSchema.safeParse({ type: "s.presence", content: { status: "AWAY" } });
 * if (result.success && result.data.type === "s.presence") console.log(result.data.content.status);
 * ```
 */
export const eventSchema = /* @__PURE__ */ z.discriminatedUnion(
  "type",
  eventVariants("type", "content", z.strictObject) as unknown as EventVariants<typeof eventTypes>,
);

// Written with the public variant type, so that the API reference can name it.
type EventVariants<T extends readonly EventType[]> = {
  -readonly [I in keyof T]: T[I] extends EventType ? EventVariantSchema<T[I]> : never;
};
