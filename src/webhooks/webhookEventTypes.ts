/**
 * The seven event types the service sends as webhooks. `s.message.delete` is a webhook
 * type only; the service does not describe its content, so any JSON value is accepted.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { webhookEventTypes } from "messaging-events/webhooks";
 *
 * console.log(webhookEventTypes.includes("s.room.create")); // true
 * ```
 */
export const webhookEventTypes = [
  "s.room.create",
  "s.room.membership",
  "s.message.text",
  "s.message.media",
  "s.message.edit",
  "s.message.delete",
  "s.room.close",
] as const;

/**
 * The name of a webhook event type.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookEventType } from "messaging-events/webhooks";
 *
 * const type: WebhookEventType = "s.message.delete";
 * ```
 */
export type WebhookEventType = (typeof webhookEventTypes)[number];
