import type { EventContentInput } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import type { JsonObject } from "../events/JsonValue.js";

/**
 * What to create: the event type and content, and optionally relationships and further attributes.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { NewEvent } from "messaging-events/client";
 *
 * const event: NewEvent<"s.message.text"> = { type: "s.message.text", content: { body: "Hello!" } };
 * ```
 */
export interface NewEvent<T extends EventType = EventType> {
  /** The event type. */
  readonly type: T;
  /** The content, validated before anything is sent. */
  readonly content: EventContentInput<T>;
  /** JSON:API relationship objects. */
  readonly relationships?: Readonly<Record<string, JsonObject>>;
  /** Further attributes, kept as they are. */
  readonly attributes?: Readonly<Record<string, unknown>>;
}
