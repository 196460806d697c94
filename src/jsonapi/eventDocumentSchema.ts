import * as z from "zod/mini";
import type { EventContent, EventContentSchemas } from "../events/EventContent.js";
import type { EventType, eventTypes } from "../events/eventTypes.js";
import { eventVariants } from "../events/eventUnion.js";
import type { JsonObject } from "../events/JsonValue.js";
import { boundedArray } from "../internal/boundedArray.js";
import { maxCodePoints } from "../internal/codePointLength.js";
import { extrasAreJson } from "../internal/extrasAreJson.js";
import { jsonObject } from "../internal/jsonValue.js";
import { notBlank } from "../internal/notBlank.js";
import {
  DEFAULT_EVENT_ATTRIBUTE_NAMES,
  type DefaultEventAttributeNames,
  type EventAttributeNames,
} from "./eventAttributeNames.js";
import { fieldNamesAreJsonApi, idempotencyKeySchema, noErrorsBesideData } from "./jsonApiChecks.js";
import { jsonApiStructure } from "./jsonApiStructure.js";

/** The spec's `id` type: 1 to 26 characters, not blank. */
const resourceId = /* @__PURE__ */ z.string().check(z.minLength(1), maxCodePoints(26), notBlank());

/**
 * The Zod schema type of the attributes of one event type, with the default attribute names:
 * `eventType`, `content` (checked against the type's schema), and any further attributes, kept
 * untouched.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventAttributesSchema } from "messaging-events/jsonapi";
 * import type * as z from "zod/mini";
 *
 * type PinAttributes = z.infer<EventAttributesSchema<"s.room.pin">>;
 * const attributes: PinAttributes = { eventType: "s.room.pin", content: { value: true } };
 * ```
 */
export type EventAttributesSchema<T extends EventType> = z.ZodMiniObject<
  { eventType: z.ZodMiniLiteral<T>; content: EventContentSchemas[T] },
  z.core.$loose
>;

type AttributeVariants<T extends readonly EventType[]> = {
  -readonly [I in keyof T]: T[I] extends EventType ? EventAttributesSchema<T[I]> : never;
};

/** @internal The request and response document schemas for one choice of attribute names. */
export interface EventDocumentSchemas {
  readonly document: z.core.$ZodType;
  readonly resource: z.core.$ZodType;
}

// @__NO_SIDE_EFFECTS__
function buildSchemas(names: EventAttributeNames) {
  // Further attributes are kept untouched, but they must be JSON and carry JSON:API field names.
  const attributes = z.discriminatedUnion(
    names.eventType,
    eventVariants(names.eventType, names.content, (shape) =>
      z.looseObject(shape).check(extrasAreJson(), fieldNamesAreJsonApi()),
    ) as unknown as AttributeVariants<typeof eventTypes>,
  );
  const relationships = z.optional(jsonObject().check(jsonApiStructure("relationships")));
  const meta = z.optional(
    z.looseObject({ "idempotency-key": z.optional(idempotencyKeySchema()) }).check(extrasAreJson()),
  );
  const links = z.optional(jsonObject().check(jsonApiStructure("links")));
  // The members JSON:API allows at the top of a document, and nothing else.
  const topLevel = {
    meta: z.optional(jsonObject()),
    jsonapi: z.optional(jsonObject().check(jsonApiStructure("jsonapi"))),
    links,
  };
  const document = z
    .strictObject({
      data: z.strictObject({
        type: z.literal("events"),
        id: z.optional(resourceId),
        attributes,
        relationships,
        meta,
        links,
      }),
      ...topLevel,
    })
    .check(noErrorsBesideData());
  const resource = z
    .strictObject({
      data: z.strictObject({
        id: resourceId,
        type: z.literal("events"),
        attributes,
        relationships,
        meta,
        links,
      }),
      // A response may carry related resources; they are the service's, kept as JSON.
      included: z.optional(boundedArray(jsonObject())),
      ...topLevel,
    })
    .check(noErrorsBesideData());
  return { document, resource };
}

const defaults = /* @__PURE__ */ buildSchemas(DEFAULT_EVENT_ATTRIBUTE_NAMES);
const byNames = new Map<string, EventDocumentSchemas>();

/**
 * @internal The schemas for these attribute names, built once per pair of names (the defaults are
 * built at load; a few custom pairs are kept).
 */
export function eventDocumentSchemasFor(names: EventAttributeNames): EventDocumentSchemas {
  if (names === DEFAULT_EVENT_ATTRIBUTE_NAMES) return defaults;
  const id = `${names.eventType}\u0000${names.content}`;
  let schemas = byNames.get(id);
  if (!schemas) {
    schemas = buildSchemas(names);
    if (byNames.size >= 16) byNames.clear();
    byNames.set(id, schemas);
  }
  return schemas;
}

/**
 * The schema of the request document of `POST {base_url}/events`, with the default attribute names:
 * `data` is one resource object of type `events` with `attributes` `{ eventType, content, … }`
 * (content checked by type; further attributes kept, as JSON with JSON:API field names), optional
 * `relationships`, optional `meta` with `idempotency-key`, and an optional client-generated `id` of
 * the spec's id type. Top-level `meta`, `jsonapi` and `links` are allowed; `errors` beside `data`
 * is not. Every value must be JSON.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { eventDocumentSchema } from "messaging-events/jsonapi";
 *
 * const result = eventDocumentSchema.safeParse({
 *   data: { type: "events", attributes: { eventType: "s.room.pin", content: { value: true } } },
 * });
 * console.log(result.success); // true
 * ```
 */
export const eventDocumentSchema: z.ZodMiniType<EventDocument, unknown> = defaults.document as never;

/**
 * The schema of the response document of a create, with the default attribute names: `data` is the
 * created event resource, with an `id` of the spec's id type (1 to 26 characters, not blank), type
 * `events`, `attributes` `{ eventType, content, … }`, and `meta["idempotency-key"]` echoing the key
 * sent. Members the spec does not list are kept, as JSON.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { eventResourceDocumentSchema } from "messaging-events/jsonapi";
 *
 * const result = eventResourceDocumentSchema.safeParse({
 *   data: {
 *     id: "01JD8X5QK3M2",
 *     type: "events",
 *     attributes: { eventType: "s.room.pin", content: { value: true } },
 *     meta: { "idempotency-key": "order-42" },
 *   },
 * });
 * console.log(result.success); // true
 * ```
 */
export const eventResourceDocumentSchema: z.ZodMiniType<EventResourceDocument, unknown> =
  defaults.resource as never;

/**
 * The attributes of an event resource: the event type and its typed content under the attribute
 * names `N` (by default `eventType` and `content`), and any further attributes. A union over the
 * event types that narrows on the type attribute.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventAttributes } from "messaging-events/jsonapi";
 *
 * function bodyOf(attributes: EventAttributes): string | undefined {
 *   return attributes.eventType === "s.message.text" ? attributes.content.body : undefined;
 * }
 * ```
 */
export type EventAttributes<
  N extends EventAttributeNames = DefaultEventAttributeNames,
  T extends EventType = EventType,
> = {
  [K in T]: { readonly [A in N["eventType"]]: K } & { readonly [A in N["content"]]: EventContent<K> } & {
    readonly [attribute: string]: unknown;
  };
}[T];

/**
 * A validated request document (spec: the body of `POST {base_url}/events`).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventDocument } from "messaging-events/jsonapi";
 *
 * const document: EventDocument = { data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } };
 * ```
 */
export interface EventDocument<N extends EventAttributeNames = DefaultEventAttributeNames> {
  readonly data: {
    readonly type: "events";
    readonly id?: string;
    readonly attributes: EventAttributes<N>;
    readonly relationships?: Readonly<Record<string, JsonObject>>;
    readonly meta?: { readonly "idempotency-key"?: string; readonly [member: string]: unknown };
    readonly links?: JsonObject;
  };
  readonly meta?: JsonObject;
  readonly jsonapi?: JsonObject;
  readonly [member: string]: unknown;
}

/**
 * A created event resource: `id`, `type: "events"`, typed `attributes` (narrow on the type
 * attribute), `relationships` and `meta`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventResource } from "messaging-events/jsonapi";
 *
 * function bodyOf(resource: EventResource): string | undefined {
 *   return resource.attributes.eventType === "s.message.text" ? resource.attributes.content.body : undefined;
 * }
 * ```
 */
export interface EventResource<N extends EventAttributeNames = DefaultEventAttributeNames> {
  readonly id: string;
  readonly type: "events";
  readonly attributes: EventAttributes<N>;
  readonly relationships?: Readonly<Record<string, JsonObject>>;
  readonly meta?: { readonly "idempotency-key"?: string; readonly [member: string]: unknown };
  readonly links?: JsonObject;
  readonly [member: string]: unknown;
}

/**
 * A validated response document; its `data` is an {@link EventResource}.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventResourceDocument } from "messaging-events/jsonapi";
 *
 * function idOf(document: EventResourceDocument): string {
 *   return document.data.id;
 * }
 * ```
 */
export interface EventResourceDocument<N extends EventAttributeNames = DefaultEventAttributeNames> {
  readonly data: EventResource<N>;
  readonly [member: string]: unknown;
}
