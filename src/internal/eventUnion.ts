import * as z from "zod/mini";
import type { EventContentSchemas } from "../events/EventContent.js";
import { eventContentSchemas } from "../events/eventContentSchemas.js";
import type { EventVariantSchema } from "../events/eventSchema.js";
import { type EventType, eventTypes } from "../events/eventTypes.js";
import type { EventAttributesSchema } from "../jsonapi/eventDocumentSchema.js";

/** Whether the `{ type, content }` objects allow other members: strict for events, loose for attributes. */
export type EventObjectConfig = z.core.$strict | z.core.$loose;

// Written with the public variant types, so that the API reference can name them.
type EventObjects<T extends readonly EventType[], C extends EventObjectConfig> = {
  -readonly [I in keyof T]: T[I] extends EventType
    ? C extends z.core.$strict
      ? EventVariantSchema<T[I]>
      : EventAttributesSchema<T[I]>
    : never;
};

/**
 * A discriminated union on `type` over all 32 `{ type, content }` variants, each built as a
 * strict (`z.strictObject`) or loose (`z.looseObject`) object. `eventSchema` and the JSON:API
 * attributes share it.
 */
// @__NO_SIDE_EFFECTS__
export function eventUnion<C extends EventObjectConfig>(
  objectOf: (shape: {
    type: z.ZodMiniLiteral<EventType>;
    content: EventContentSchemas[EventType];
  }) => z.ZodMiniObject,
) {
  const variants = eventTypes.map((type) =>
    objectOf({ type: z.literal(type), content: eventContentSchemas[type] }),
  ) as unknown as EventObjects<typeof eventTypes, C>;
  return z.discriminatedUnion("type", variants);
}
