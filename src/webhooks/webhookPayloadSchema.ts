import * as z from "zod/mini";
import { messageEditContent } from "../events/content/messageEditContent.js";
import { messageMediaContent } from "../events/content/messageMediaContent.js";
import { messageTextContent } from "../events/content/messageTextContent.js";
import { roomCloseContent } from "../events/content/roomCloseContent.js";
import { roomCreateContent } from "../events/content/roomCreateContent.js";
import { roomMembershipContent } from "../events/content/roomMembershipContent.js";
import type { EventContentSchemas } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import type { JsonObject, JsonValue } from "../events/JsonValue.js";
import { boundedArray } from "../internal/boundedArray.js";
import { extrasAreJson } from "../internal/extrasAreJson.js";
import { jsonObject, jsonValue } from "../internal/jsonValue.js";
import { type WebhookEventType, webhookEventTypes } from "./webhookEventTypes.js";

const webhookContentSchemas = {
  "s.room.create": roomCreateContent,
  "s.room.membership": roomMembershipContent,
  "s.message.text": messageTextContent,
  "s.message.media": messageMediaContent,
  "s.message.edit": messageEditContent,
  "s.message.delete": /* @__PURE__ */ jsonValue<JsonValue>(),
  "s.room.close": roomCloseContent,
};

/**
 * A recipient: `id` required, `externalId` optional; members the service does not list are kept,
 * and must be JSON values like the rest.
 */
const recipient = /* @__PURE__ */ z
  .looseObject({ id: z.string(), externalId: z.optional(z.string()) })
  .check(extrasAreJson());

/** The optional members of every payload. */
const optionalMembers = {
  roomId: /* @__PURE__ */ z.optional(z.string()),
  senderId: /* @__PURE__ */ z.optional(z.string()),
  senderExternalId: /* @__PURE__ */ z.optional(z.string()),
  // Bounded: a list of 200,000 bad recipients is reported in a few issues, not one per entry.
  recipients: /* @__PURE__ */ z.optional(boundedArray(recipient)),
  referenceId: /* @__PURE__ */ z.optional(z.string()),
  livechatId: /* @__PURE__ */ z.optional(z.string()),
  preconditions: /* @__PURE__ */ z.optional(jsonObject<JsonObject>()),
};

/**
 * The Zod schema type of the payload of one webhook type, a variant of {@link webhookPayloadSchema}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookPayloadVariantSchema } from "messaging-events/webhooks";
 * import type * as z from "zod/mini";
 *
 * type RoomCreated = z.infer<WebhookPayloadVariantSchema<"s.room.create">>;
 * const payload: RoomCreated = { type: "s.room.create", version: 2, content: { creatorId: "user-7" } };
 * ```
 */
export type WebhookPayloadVariantSchema<T extends WebhookEventType> = z.ZodMiniObject<
  {
    type: z.ZodMiniLiteral<T>;
    version: z.ZodMiniLiteral<2>;
    content: T extends EventType ? EventContentSchemas[T] : z.ZodMiniCustom<JsonValue, JsonValue>;
    roomId: z.ZodMiniOptional<z.ZodMiniString<string>>;
    senderId: z.ZodMiniOptional<z.ZodMiniString<string>>;
    senderExternalId: z.ZodMiniOptional<z.ZodMiniString<string>>;
    recipients: z.ZodMiniOptional<
      z.ZodMiniArray<
        z.ZodMiniObject<
          { id: z.ZodMiniString<string>; externalId: z.ZodMiniOptional<z.ZodMiniString<string>> },
          z.core.$loose
        >
      >
    >;
    referenceId: z.ZodMiniOptional<z.ZodMiniString<string>>;
    livechatId: z.ZodMiniOptional<z.ZodMiniString<string>>;
    preconditions: z.ZodMiniOptional<z.ZodMiniCustom<JsonObject, JsonObject>>;
  },
  z.core.$loose
>;

type VariantSchemas<T extends readonly WebhookEventType[]> = {
  -readonly [I in keyof T]: T[I] extends WebhookEventType ? WebhookPayloadVariantSchema<T[I]> : never;
};

// @__NO_SIDE_EFFECTS__
function buildWebhookPayloadSchema() {
  const variants = webhookEventTypes.map((type) =>
    z
      .looseObject({
        type: z.literal(type),
        version: z.literal(2),
        content: webhookContentSchemas[type],
        ...optionalMembers,
      })
      .check(extrasAreJson()),
  ) as unknown as VariantSchemas<typeof webhookEventTypes>;
  return z.discriminatedUnion("type", variants);
}

/**
 * The schema of a webhook payload: a discriminated union on `type` over the
 * seven webhook types; `version` must be the number 2; `content` is checked against that type's
 * content schema (any JSON value for `s.message.delete`); the optional members `roomId`,
 * `senderId`, `senderExternalId`, `recipients` (each with an `id`), `referenceId`, `livechatId` and
 * `preconditions` are checked when present; members the service does not list are accepted and kept
 * when they are JSON values (at the top level and in each recipient).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { webhookPayloadSchema } from "messaging-events/webhooks";
 *
 * const result = webhookPayloadSchema.safeParse({ type: "s.room.close", version: 2, content: {}, roomId: "room-42" });
 * console.log(result.success); // true
 * ```
 */
export const webhookPayloadSchema = /* @__PURE__ */ buildWebhookPayloadSchema();

/**
 * A validated webhook payload, a discriminated union that narrows on `type`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookPayload } from "messaging-events/webhooks";
 *
 * function roomOf(payload: WebhookPayload): string | undefined {
 *   if (payload.type === "s.room.create") console.log(payload.content.creatorId);
 *   return payload.roomId;
 * }
 * ```
 */
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;
