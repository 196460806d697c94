import type { EventContent, EventContentInput } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import { parseEventContent } from "../events/parseEventContent.js";
import { IDEMPOTENCY_KEY_META, isValidIdempotencyKey } from "../idempotency/idempotencyKey.js";
import type { JsonObject } from "../internal/jsonValue.js";
import { safeParseEventDocument } from "./parseEventDocument.js";

/**
 * What {@link createEventDocument} needs: the event type and content, and optionally further
 * attributes, relationships and an idempotency key.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { CreateEventDocumentInput } from "messaging-events/jsonapi";
 *
 * const input: CreateEventDocumentInput<"s.message.text"> = {
 *   type: "s.message.text",
 *   content: { body: "Hello!" },
 *   relationships: { room: { data: { type: "rooms", id: "room-42" } } },
 * };
 * ```
 */
export interface CreateEventDocumentInput<T extends EventType = EventType> {
  /** The event type. */
  readonly type: T;
  /** The content, validated against the type's schema. */
  readonly content: EventContentInput<T>;
  /** Further attributes, kept untouched (ruling 11); `type` and `content` always win. */
  readonly attributes?: Readonly<Record<string, unknown>>;
  /** JSON:API relationship objects, kept untouched. */
  readonly relationships?: Readonly<Record<string, JsonObject>>;
  /** Puts the key in `data.meta["idempotency-key"]`; send it in the header too (`withIdempotencyKey`). */
  readonly idempotencyKey?: string;
}

/**
 * The request document built by {@link createEventDocument}.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventCreateDocument } from "messaging-events/jsonapi";
 *
 * const document: EventCreateDocument<"s.room.pin"> = {
 *   data: { type: "events", attributes: { type: "s.room.pin", content: { value: true } } },
 * };
 * ```
 */
export interface EventCreateDocument<T extends EventType = EventType> {
  readonly data: {
    readonly type: "events";
    readonly attributes: {
      readonly type: T;
      readonly content: EventContent<T>;
      readonly [attribute: string]: unknown;
    };
    readonly relationships?: Readonly<Record<string, JsonObject>>;
    readonly meta?: { readonly "idempotency-key": string };
  };
}

/**
 * Builds the JSON:API request document of `POST {base_url}/events` (spec 4.1): validates the
 * content for its type (throws `EventValidationError` otherwise), and returns
 * `{ data: { type: "events", attributes: { type, content, …attributes }, relationships?, meta? } }`.
 * The attribute names `type` and `content` are the library's reading of the spec (ruling 11).
 * Throws a `TypeError` for an invalid idempotency key.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @throws {EventValidationError} when the type is unknown, the content is invalid, or the further
 * attributes or relationships are not JSON (code `ERR_INVALID_EVENT_DOCUMENT`, pointers into the document).
 *
 * @example
 * ```ts
 * import { createEventDocument } from "messaging-events/jsonapi";
 *
 * const document = createEventDocument({
 *   type: "s.message.text",
 *   content: { body: "Hello!" },
 *   idempotencyKey: "order-42",
 * });
 * console.log(JSON.stringify(document));
 * // {"data":{"type":"events","attributes":{"type":"s.message.text","content":{"body":"Hello!"}},"meta":{"idempotency-key":"order-42"}}}
 * ```
 */
export function createEventDocument<T extends EventType>(
  input: CreateEventDocumentInput<T>,
): EventCreateDocument<T> {
  const content = parseEventContent(input.type, input.content);
  if (input.idempotencyKey !== undefined && !isValidIdempotencyKey(input.idempotencyKey)) {
    throw new TypeError(
      "createEventDocument: idempotencyKey must be a non-blank string of at most 255 characters",
    );
  }
  const document = {
    data: {
      type: "events",
      attributes: { ...input.attributes, type: input.type, content },
      ...(input.relationships ? { relationships: { ...input.relationships } } : {}),
      ...(input.idempotencyKey === undefined
        ? {}
        : { meta: { [IDEMPOTENCY_KEY_META]: input.idempotencyKey } }),
    },
  } as EventCreateDocument<T>;
  // The further attributes and the relationships must be JSON too: check the whole document as a server would.
  const checked = safeParseEventDocument(document);
  if (!checked.success) throw checked.error;
  return document;
}
