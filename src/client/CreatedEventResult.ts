import type { EventType } from "../events/eventTypes.js";
import type { DefaultEventAttributeNames, EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import type { CreatedEvent } from "./CreatedEvent.js";

/**
 * What `createEvent` resolves to: the created event, and whether the service had created it
 * before.
 *
 * - `data` is the event resource the service returned, typed by the event type;
 * - `replayed` is `true` when the service answered with `Idempotent-Replayed: true`: it already
 *   had an event for this idempotency key and sent back the stored answer instead of creating
 *   another. That happens when an earlier call with the same key created it, and also when an
 *   earlier attempt of this very call did but its answer was lost (a dropped connection, a
 *   time-out). `false` for a new event, and when the header cannot be read: in a browser calling
 *   another origin, the service must list it in `Access-Control-Expose-Headers`.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { CreatedEventResult } from "messaging-events/client";
 *
 * function summary({ data, replayed }: CreatedEventResult<"s.message.text">): string {
 *   return `${data.id}${replayed ? " (created before)" : ""}: ${data.attributes.content.body}`;
 * }
 * ```
 */
export interface CreatedEventResult<
  T extends EventType = EventType,
  N extends EventAttributeNames = DefaultEventAttributeNames,
> {
  /** The created event resource. */
  readonly data: CreatedEvent<T, N>;
  /** Whether the service sent back an event it had already created for this key. */
  readonly replayed: boolean;
}
