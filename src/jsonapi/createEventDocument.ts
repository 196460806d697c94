import type { EventContentInput } from "../events/EventContent.js";
import { EventValidationError } from "../events/EventValidationError.js";
import type { EventType } from "../events/eventTypes.js";
import type { JsonObject } from "../events/JsonValue.js";
import { parseEventContent } from "../events/parseEventContent.js";
import {
  IDEMPOTENCY_KEY_META,
  IdempotencyKeyError,
  isValidIdempotencyKey,
} from "../idempotency/idempotencyKey.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import {
  type DefaultEventAttributeNames,
  type EventAttributeNames,
  type JsonApiOptions,
  resolveAttributeNames,
} from "./eventAttributeNames.js";
import type { EventAttributes } from "./eventDocumentSchema.js";
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
  /** Further attributes, kept untouched; the event type and content attributes always win. */
  readonly attributes?: Readonly<Record<string, unknown>>;
  /** JSON:API relationship objects, kept untouched. */
  readonly relationships?: Readonly<Record<string, JsonObject>>;
  /** Puts the key in `data.meta["idempotency-key"]`; send it in the header too (`withIdempotencyKey`). */
  readonly idempotencyKey?: string;
}

/**
 * The request document built by {@link createEventDocument}, with the attribute names `N` (by
 * default `eventType` and `content`).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventCreateDocument } from "messaging-events/jsonapi";
 *
 * const document: EventCreateDocument<"s.room.pin"> = {
 *   data: { type: "events", attributes: { eventType: "s.room.pin", content: { value: true } } },
 * };
 * ```
 */
export interface EventCreateDocument<
  T extends EventType = EventType,
  N extends EventAttributeNames = DefaultEventAttributeNames,
> {
  readonly data: {
    readonly type: "events";
    readonly attributes: EventAttributes<N, T>;
    readonly relationships?: Readonly<Record<string, JsonObject>>;
    readonly meta?: { readonly "idempotency-key": string };
  };
}

/**
 * Builds the JSON:API request document of `POST {base_url}/events`: validates the content for its
 * type (throws `EventValidationError` otherwise), and returns
 * `{ data: { type: "events", attributes: { eventType, content, …attributes }, relationships?, meta? } }`.
 * The service's description does not name the two attributes; `eventType` and `content` are the
 * library's reading (JSON:API forbids an attribute named `type`), and `options.attributeNames`
 * changes them. Further attributes and relationships are kept as given; they must be JSON and carry
 * names JSON:API allows.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @throws {EventValidationError} when the input is not `{ type, content }`, the type is unknown, the
 * content is invalid, or the further attributes or relationships are not JSON or badly named (code
 * `ERR_INVALID_EVENT_DOCUMENT`, pointers into the document).
 * @throws {IdempotencyKeyError} when `idempotencyKey` is not a valid key.
 * @throws {AttributeNameError} when `options.attributeNames` holds names JSON:API forbids.
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
 * // {"data":{"type":"events","attributes":{"eventType":"s.message.text","content":{"body":"Hello!"}},"meta":{"idempotency-key":"order-42"}}}
 * ```
 */
export function createEventDocument<
  T extends EventType,
  N extends EventAttributeNames = DefaultEventAttributeNames,
>(input: CreateEventDocumentInput<T>, options?: JsonApiOptions<N>): EventCreateDocument<T, N> {
  const names = resolveAttributeNames(options);
  if (!isPlainObject(input)) {
    throw new EventValidationError("ERR_INVALID_EVENT", undefined, [
      {
        code: "invalid_type",
        path: [],
        pointer: "",
        message: `createEventDocument needs { type, content }, not ${withArticle(describeValue(input))}`,
        params: { expected: "object", received: describeValue(input) },
      },
    ]);
  }
  const content = parseEventContent(input.type, input.content);
  if (input.idempotencyKey !== undefined && !isValidIdempotencyKey(input.idempotencyKey)) {
    throw new IdempotencyKeyError("createEventDocument");
  }
  const extra: unknown = input.attributes;
  const relationships: unknown = input.relationships;
  const document = {
    data: {
      type: "events",
      attributes: {
        ...(isPlainObject(extra) ? extra : {}),
        [names.eventType]: input.type,
        [names.content]: content,
      },
      ...(relationships === undefined
        ? {}
        : { relationships: isPlainObject(relationships) ? { ...relationships } : relationships }),
      ...(input.idempotencyKey === undefined
        ? {}
        : { meta: { [IDEMPOTENCY_KEY_META]: input.idempotencyKey } }),
    },
  } as unknown as EventCreateDocument<T, N>;
  if (extra !== undefined && !isPlainObject(extra)) {
    throw new EventValidationError("ERR_INVALID_EVENT_DOCUMENT", input.type, [
      {
        code: "invalid_type",
        path: ["data", "attributes"],
        pointer: "/data/attributes",
        message: `attributes must be an object of further attributes, not ${withArticle(describeValue(extra))}`,
        params: { expected: "object", received: describeValue(extra) },
      },
    ]);
  }
  // The further attributes and the relationships must be JSON too: check the whole document as a server would.
  const checked = safeParseEventDocument(document, options);
  if (!checked.success) throw checked.error;
  return document;
}
