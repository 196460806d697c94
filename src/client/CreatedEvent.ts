import type { EventType } from "../events/eventTypes.js";
import type { DefaultEventAttributeNames, EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import type { EventAttributes, EventResource } from "../jsonapi/eventDocumentSchema.js";

/**
 * A created event: the resource the service returned, typed by the event type.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { CreatedEvent } from "messaging-events/client";
 *
 * function summary(event: CreatedEvent<"s.message.text">): string {
 *   return `${event.id}: ${event.attributes.content.body}`;
 * }
 * ```
 */
export type CreatedEvent<
  T extends EventType = EventType,
  N extends EventAttributeNames = DefaultEventAttributeNames,
> = EventResource<N> & { readonly attributes: EventAttributes<N, T> };
