/**
 * The 32 event types of the messaging service, in the order of the spec (section 2.3).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { eventTypes } from "messaging-events/events";
 *
 * console.log(eventTypes.length); // 32
 * console.log(eventTypes.filter((type) => type.startsWith("s.support.")));
 * ```
 */
export const eventTypes = [
  "s.change",
  "s.presence",
  "s.delete",
  "s.form.submission",
  "s.support.open",
  "s.receipt",
  "s.room.close",
  "s.room.typing",
  "s.message.preview.track",
  "s.support.inactive",
  "s.form",
  "s.invitation",
  "s.mention",
  "s.message.text",
  "s.message.text.translation",
  "s.message.media",
  "s.message.edit",
  "s.message.preview",
  "s.message.action",
  "s.message.action.invocation",
  "s.message.action.invocation.validation",
  "s.room.blocked",
  "s.room.pin",
  "s.room.setting",
  "s.room.user.setting",
  "s.room.create",
  "s.room.membership",
  "s.support.close",
  "s.support.delegate",
  "s.support.request",
  "s.support.request.rejected",
  "s.timer",
] as const;

/**
 * The name of an event type, such as `"s.message.text"`.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventType } from "messaging-events/events";
 *
 * const type: EventType = "s.room.create";
 * ```
 */
export type EventType =
  | "s.change"
  | "s.presence"
  | "s.delete"
  | "s.form.submission"
  | "s.support.open"
  | "s.receipt"
  | "s.room.close"
  | "s.room.typing"
  | "s.message.preview.track"
  | "s.support.inactive"
  | "s.form"
  | "s.invitation"
  | "s.mention"
  | "s.message.text"
  | "s.message.text.translation"
  | "s.message.media"
  | "s.message.edit"
  | "s.message.preview"
  | "s.message.action"
  | "s.message.action.invocation"
  | "s.message.action.invocation.validation"
  | "s.room.blocked"
  | "s.room.pin"
  | "s.room.setting"
  | "s.room.user.setting"
  | "s.room.create"
  | "s.room.membership"
  | "s.support.close"
  | "s.support.delegate"
  | "s.support.request"
  | "s.support.request.rejected"
  | "s.timer";
