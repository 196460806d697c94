/**
 * The names of the two attributes of the event resource that carry the event: its type and its
 * content. The service's description does not name them; the library reads them as `eventType` and
 * `content` (mirroring the webhook payload's `type` and `content`: JSON:API forbids an attribute
 * named `type`). Pass other names wherever the library builds or reads documents if you learn the
 * service's real ones.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventAttributeNames } from "messaging-events/jsonapi";
 *
 * const names: EventAttributeNames = { eventType: "kind", content: "payload" };
 * ```
 */
export interface EventAttributeNames {
  /** The attribute that holds the event type. */
  readonly eventType: string;
  /** The attribute that holds the event's content. */
  readonly content: string;
}

/**
 * The default attribute names, as a type: `{ eventType: "eventType"; content: "content" }`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { DefaultEventAttributeNames } from "messaging-events/jsonapi";
 *
 * const names: DefaultEventAttributeNames = { eventType: "eventType", content: "content" };
 * ```
 */
export interface DefaultEventAttributeNames {
  readonly eventType: "eventType";
  readonly content: "content";
}

/**
 * The options that every JSON:API function of the library accepts (building and parsing documents,
 * writing error documents, the client, the server): one value to pass everywhere.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventDocument, type JsonApiOptions } from "messaging-events/jsonapi";
 *
 * const jsonApi: JsonApiOptions = { attributeNames: { eventType: "kind", content: "payload" } };
 * const document = createEventDocument({ type: "s.room.close", content: {} }, jsonApi);
 * console.log(document.data.attributes); // { kind: "s.room.close", payload: {} }
 * ```
 */
export interface JsonApiOptions<N extends EventAttributeNames = EventAttributeNames> {
  /**
   * The names of the event type and content attributes.
   * @default { eventType: "eventType", content: "content" }
   */
  readonly attributeNames?: N;
}

/**
 * The default attribute names: `{ eventType: "eventType", content: "content" }`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { DEFAULT_EVENT_ATTRIBUTE_NAMES } from "messaging-events/jsonapi";
 *
 * console.log(DEFAULT_EVENT_ATTRIBUTE_NAMES.eventType); // "eventType"
 * ```
 */
export const DEFAULT_EVENT_ATTRIBUTE_NAMES: DefaultEventAttributeNames = /* @__PURE__ */ Object.freeze({
  eventType: "eventType",
  content: "content",
});

// The member names that JSON:API recommends and its official schema accepts: ASCII letters and
// digits, with "-" and "_" inside (not first or last). JSON:API also allows spaces and characters
// beyond ASCII, but tools choke on them, and some (line separators, bidirectional overrides) could
// hide what a name is.
const MEMBER_NAME = /^[A-Za-z0-9](?:[-_A-Za-z0-9]*[A-Za-z0-9])?$/;
const RESERVED_FIELDS = new Set(["type", "id", "links", "relationships"]);

/**
 * Whether a string is a legal name for an attribute or a relationship of a resource under JSON:API:
 * ASCII letters and digits, with `-` and `_` inside but not first or last (the member names the
 * official JSON:API schema accepts), and not `type`, `id`, `links` or `relationships` (fields share
 * one namespace with `type` and `id`, and attributes may not hold `links` or `relationships`). At
 * most 256 characters. Never throws.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isJsonApiFieldName } from "messaging-events/jsonapi";
 *
 * isJsonApiFieldName("eventType"); // true
 * isJsonApiFieldName("type"); // false: reserved
 * isJsonApiFieldName("__proto__"); // false: "_" may not come first
 * ```
 */
export function isJsonApiFieldName(value: unknown): value is string {
  return (
    typeof value === "string" && value.length <= 256 && MEMBER_NAME.test(value) && !RESERVED_FIELDS.has(value)
  );
}

/**
 * Names that JSON:API does not allow were given for the event attributes: a `TypeError` with the
 * stable code `ERR_INVALID_ATTRIBUTE_NAME`, thrown before anything is built or sent.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { AttributeNameError, createEventDocument } from "messaging-events/jsonapi";
 *
 * try {
 *   createEventDocument({ type: "s.room.close", content: {} }, { attributeNames: { eventType: "type", content: "content" } });
 * } catch (error) {
 *   if (error instanceof AttributeNameError) console.log(error.code); // "ERR_INVALID_ATTRIBUTE_NAME"
 * }
 * ```
 */
export class AttributeNameError extends TypeError {
  /** Always `ERR_INVALID_ATTRIBUTE_NAME`. */
  readonly code = "ERR_INVALID_ATTRIBUTE_NAME";

  /**
   * Creates the error.
   *
   * @param message - What is wrong with the names.
   */
  constructor(message: string) {
    super(message);
    this.name = "AttributeNameError";
  }
}

/** The longest attribute name accepted: short enough that every pointer into the content stays whole. */
const MAX_ATTRIBUTE_NAME_LENGTH = 128;

// Names every object inherits: a document without the attribute would read the inherited function.
const INHERITED = new Set([
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/**
 * @internal The attribute names of a call: the defaults, or the names given, checked. Throws an
 * {@link AttributeNameError} for names JSON:API forbids, names longer than 128 characters, names
 * every object inherits (`toString`…), the same name twice, `attributeNames` that is not an object,
 * and options that cannot be read.
 */
export function resolveAttributeNames(options: JsonApiOptions | undefined): EventAttributeNames {
  let given: unknown;
  let eventType: unknown;
  let content: unknown;
  try {
    given = options?.attributeNames;
    if (given === undefined || given === DEFAULT_EVENT_ATTRIBUTE_NAMES) return DEFAULT_EVENT_ATTRIBUTE_NAMES;
    if (typeof given !== "object" || given === null || Array.isArray(given)) {
      throw new AttributeNameError("attributeNames must be an object { eventType, content }");
    }
    eventType = (given as Partial<EventAttributeNames>).eventType ?? DEFAULT_EVENT_ATTRIBUTE_NAMES.eventType;
    content = (given as Partial<EventAttributeNames>).content ?? DEFAULT_EVENT_ATTRIBUTE_NAMES.content;
  } catch (cause) {
    if (cause instanceof AttributeNameError) throw cause;
    // A getter or proxy that throws: the options are the caller's, and unusable.
    throw new AttributeNameError("attributeNames could not be read");
  }
  for (const [role, name] of [
    ["eventType", eventType],
    ["content", content],
  ] as const) {
    if (!isJsonApiFieldName(name) || name.length > MAX_ATTRIBUTE_NAME_LENGTH || INHERITED.has(name)) {
      throw new AttributeNameError(
        `attributeNames.${role} must be a JSON:API attribute name of at most ${MAX_ATTRIBUTE_NAME_LENGTH} characters (ASCII letters and digits, "-" and "_" inside; not type, id, links or relationships, nor a name every object inherits such as toString)`,
      );
    }
  }
  if (eventType === content)
    throw new AttributeNameError("attributeNames.eventType and attributeNames.content must differ");
  return eventType === DEFAULT_EVENT_ATTRIBUTE_NAMES.eventType &&
    content === DEFAULT_EVENT_ATTRIBUTE_NAMES.content
    ? DEFAULT_EVENT_ATTRIBUTE_NAMES
    : { eventType: eventType as string, content: content as string };
}
