import type { MessagingEvent } from "../events/EventContent.js";
import type { EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";

/**
 * The event (type and content) that a validated request document carries, read from the attributes
 * the names say (`eventType` and `content` by default): the one place the handler reads them.
 */
export function eventOf(document: EventDocument, names: EventAttributeNames): MessagingEvent {
  const attributes = document.data.attributes as Readonly<Record<string, unknown>>;
  return { type: attributes[names.eventType], content: attributes[names.content] } as MessagingEvent;
}
