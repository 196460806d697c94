import * as z from "zod/mini";
import type { EventContentSchemas } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import { maxCodePoints } from "../internal/codePointLength.js";
import { eventUnion } from "../internal/eventUnion.js";
import { extrasAreJson } from "../internal/extrasAreJson.js";
import { jsonObject } from "../internal/jsonValue.js";
import { notBlank } from "../internal/notBlank.js";

/** The spec's `id` type (ruling 12): 1 to 26 characters, not blank. */
const resourceId = /* @__PURE__ */ z.string().check(z.minLength(1), maxCodePoints(26), notBlank());

/** An idempotency key as ruling 14 accepts it: not blank, at most 255 characters. */
const idempotencyKey = /* @__PURE__ */ z.string().check(maxCodePoints(255), notBlank());

/**
 * The Zod schema type of the attributes of one event type: `type`, its `content`, and any further
 * attributes, kept untouched (ruling 11).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventAttributesSchema } from "messaging-events/jsonapi";
 * import type * as z from "zod/mini";
 *
 * type PinAttributes = z.infer<EventAttributesSchema<"s.room.pin">>;
 * const attributes: PinAttributes = { type: "s.room.pin", content: { value: true } };
 * ```
 */
export type EventAttributesSchema<T extends EventType> = z.ZodMiniObject<
  { type: z.ZodMiniLiteral<T>; content: EventContentSchemas[T] },
  z.core.$loose
>;

// Further attributes are kept untouched (ruling 11), but they must be JSON.
const attributes = /* @__PURE__ */ eventUnion<z.core.$loose>((shape) =>
  z.looseObject(shape).check(extrasAreJson()),
);
const relationships = /* @__PURE__ */ z.optional(z.record(z.string(), jsonObject()));
const meta = /* @__PURE__ */ z.optional(z.looseObject({ "idempotency-key": z.optional(idempotencyKey) }));

/**
 * The schema of the request document of `POST {base_url}/events` (spec 4.1): `data` is one
 * resource object of type `events` with `attributes` `{ type, content, … }` (ruling 11, content
 * checked by type), optional `relationships`, optional `meta` with `idempotency-key`, and an
 * optional client-generated `id` of the spec's id type. Top-level `meta`, `jsonapi` and `links` are
 * allowed.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { eventDocumentSchema } from "messaging-events/jsonapi";
 *
 * const result = eventDocumentSchema.safeParse({
 *   data: { type: "events", attributes: { type: "s.room.pin", content: { value: true } } },
 * });
 * console.log(result.success); // true
 * ```
 */
export const eventDocumentSchema = /* @__PURE__ */ z.looseObject({
  data: z.strictObject({
    type: z.literal("events"),
    id: z.optional(resourceId),
    attributes,
    relationships,
    meta,
    links: z.optional(jsonObject()),
  }),
  meta: z.optional(jsonObject()),
  jsonapi: z.optional(jsonObject()),
});

/**
 * The schema of the response document of a create (spec 2.2, 4.1): `data` is the created event
 * resource, with an `id` of the spec's id type (1 to 26 characters, not blank: ruling 12), type
 * `events`, `attributes` `{ type, content, … }`, and `meta["idempotency-key"]` echoing the key
 * sent. Members the spec does not list are kept.
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
 *     attributes: { type: "s.room.pin", content: { value: true } },
 *     meta: { "idempotency-key": "order-42" },
 *   },
 * });
 * console.log(result.success); // true
 * ```
 */
export const eventResourceDocumentSchema = /* @__PURE__ */ z.looseObject({
  data: z.looseObject({
    id: resourceId,
    type: z.literal("events"),
    attributes,
    relationships,
    meta,
    links: z.optional(jsonObject()),
  }),
});

/**
 * A validated request document.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventDocument } from "messaging-events/jsonapi";
 *
 * const document: EventDocument = { data: { type: "events", attributes: { type: "s.room.close", content: {} } } };
 * ```
 */
export type EventDocument = z.output<typeof eventDocumentSchema>;

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
export type EventResourceDocument = z.output<typeof eventResourceDocumentSchema>;

/**
 * A created event resource: `id`, `type: "events"`, typed `attributes` (narrow on
 * `attributes.type`), `relationships` and `meta`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventResource } from "messaging-events/jsonapi";
 *
 * function bodyOf(resource: EventResource): string | undefined {
 *   return resource.attributes.type === "s.message.text" ? resource.attributes.content.body : undefined;
 * }
 * ```
 */
export type EventResource = EventResourceDocument["data"];
