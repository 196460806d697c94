/**
 * The example webhook payloads the package ships (`messaging-events/examples/webhooks/<name>.json`):
 * one for each of the seven webhook types, named after the type, and the variants a receiver must
 * handle (`<type>--<variant>`): media with a body instead of a label, every membership, and a
 * payload with every optional member. Validated by the library in test/contracts/examples.test.ts.
 */
import type { WebhookEventType, WebhookPayload } from "../../src/webhooks/index.js";

/** One example payload, with the file name it ships under and what it shows. */
export interface WebhookExample {
  /** `<type>` for the first example of a type, `<type>--<variant>` for the others. */
  readonly name: string;
  /** One line: what the example shows. */
  readonly summary: string;
  readonly payload: WebhookPayload;
}

type PayloadOf<T extends WebhookEventType> = Extract<WebhookPayload, { type: T }>;

// @__NO_SIDE_EFFECTS__
function example<T extends WebhookEventType>(
  summary: string,
  payload: PayloadOf<T>,
  variant?: string,
): WebhookExample {
  return { name: variant === undefined ? payload.type : `${payload.type}--${variant}`, summary, payload };
}

const room = { roomId: "room-9c2e71" };

/** Every example payload: the first of each type is named after it. */
export const webhookExamples: readonly WebhookExample[] = [
  example("A room was created", {
    type: "s.room.create",
    version: 2,
    content: { creatorId: "user-4821" },
    ...room,
    senderId: "user-4821",
  }),
  example("A bot joined a room on its own", {
    type: "s.room.membership",
    version: 2,
    content: {
      membership: "join",
      initiatorId: "user-4821",
      sticky: false,
      assignee: "Bot",
      trigger: "Auto",
    },
    ...room,
    senderId: "bot-welcome",
  }),
  example(
    "An agent left a room by hand",
    {
      type: "s.room.membership",
      version: 2,
      content: { membership: "leave", assignee: "Agent", trigger: "Manual" },
      ...room,
      senderId: "agent-2291",
    },
    "leave",
  ),
  example(
    "A user invited into a room",
    {
      type: "s.room.membership",
      version: 2,
      content: { membership: "invite", inviteeId: "user-5120" },
      ...room,
      senderId: "agent-2291",
    },
    "invite",
  ),
  example("A text message", {
    type: "s.message.text",
    version: 2,
    content: { body: "Hi Dana, your replacement card is on its way 💳", format: "text/plain" },
    ...room,
    senderId: "agent-2291",
    recipients: [{ id: "user-4821" }],
  }),
  example(
    "A text message with every optional member of a payload",
    {
      type: "s.message.text",
      version: 2,
      content: { body: "I would like to change my delivery address", annotations: { channel: "web" } },
      ...room,
      senderId: "user-4821",
      senderExternalId: "crm-contact-118842",
      recipients: [{ id: "agent-2291", externalId: "crm-user-77" }, { id: "bot-welcome" }],
      referenceId: "01JD8X2B7F0R3N5P8Q1S4V6W9Y",
      livechatId: "livechat-billing",
      preconditions: { language: "en", topic: "billing" },
    },
    "every-member",
  ),
  example("A photo with a label", {
    type: "s.message.media",
    version: 2,
    content: { label: "Receipt, 14 March", mediaId: "media-5f81c2" },
    ...room,
    senderId: "user-4821",
  }),
  example(
    "A document with a body instead of a label",
    {
      type: "s.message.media",
      version: 2,
      content: { body: "Here is the signed contract.", mediaId: "media-77a0d9" },
      ...room,
      senderId: "agent-2291",
    },
    "with-body",
  ),
  example("A text message corrected", {
    type: "s.message.edit",
    version: 2,
    content: { body: "Hi Dana, your replacement card arrives on Friday", editedType: "s.message.text" },
    ...room,
    senderId: "agent-2291",
    referenceId: "01JD8X5QK3M2A7R9T4W6Y8Z0BC",
  }),
  example("A message deleted (its content is the service's own: any JSON value)", {
    type: "s.message.delete",
    version: 2,
    content: { eventId: "01JD8X5QK3M2A7R9T4W6Y8Z0BC" },
    ...room,
    senderId: "agent-2291",
    referenceId: "01JD8X5QK3M2A7R9T4W6Y8Z0BC",
  }),
  example("A room was closed", {
    type: "s.room.close",
    version: 2,
    content: {},
    ...room,
    senderId: "agent-2291",
  }),
];
