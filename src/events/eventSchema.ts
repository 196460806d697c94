import * as z from "zod/mini";
import { eventUnion } from "../internal/eventUnion.js";
import type { EventContentSchemas } from "./EventContent.js";
import type { EventType } from "./eventTypes.js";

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
export const eventSchema = /* @__PURE__ */ eventUnion<z.core.$strict>(z.strictObject);
