import type { JsonObject } from "../events/JsonValue.js";
import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";
import type { WebhookPayload } from "../webhooks/webhookPayloadSchema.js";

/**
 * An event to dispatch, with the optional members of the webhook payload: the dispatcher builds the
 * version-2 payload from it (`{ type, version: 2, content, roomId, … }`).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { WebhookEventInput } from "messaging-events/dispatch";
 *
 * const input: WebhookEventInput<"s.message.text"> = {
 *   event: { type: "s.message.text", content: { body: "Hello" } },
 *   roomId: "room-42",
 *   senderId: "user-7",
 *   recipients: [{ id: "user-8" }],
 * };
 * ```
 */
export interface WebhookEventInput<T extends WebhookEventType = WebhookEventType> {
  /** The event: one of the seven webhook types and its content. */
  readonly event: { readonly type: T; readonly content: Extract<WebhookPayload, { type: T }>["content"] };
  /** The room the event was posted in. */
  readonly roomId?: string;
  /** The sender's id. */
  readonly senderId?: string;
  /** The sender's external id. */
  readonly senderExternalId?: string;
  /** The recipients, each with an `id`. */
  readonly recipients?: readonly { readonly id: string; readonly externalId?: string }[];
  /** The event this one references. */
  readonly referenceId?: string;
  /** The live chat id. */
  readonly livechatId?: string;
  /** The live chat preconditions. */
  readonly preconditions?: JsonObject;
}

/**
 * What `dispatch` takes: a complete version-2 webhook payload, or a {@link WebhookEventInput}.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { DispatchInput } from "messaging-events/dispatch";
 *
 * const payload: DispatchInput = { type: "s.room.close", version: 2, content: {}, roomId: "room-42" };
 * const event: DispatchInput = { event: { type: "s.room.close", content: {} }, roomId: "room-42" };
 * ```
 */
export type DispatchInput = WebhookPayload | WebhookEventInput;
