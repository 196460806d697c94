/**
 * The example events the package ships (`messaging-events/examples/events/<name>.json`): one for
 * each of the 32 event types, named after the type, and one more per variant a receiver must tell
 * apart (`<type>--<variant>`): media with a body instead of a label, every kind of action, every
 * membership, every timer status. Hand-picked to read like real traffic; typed by the library, and
 * validated by it in test/contracts/examples.test.ts.
 */
import type { EventContent, EventType } from "../../src/events/index.js";

/** One example event, with the file name it ships under and what it shows. */
export interface EventExample<T extends EventType = EventType> {
  /** `<type>` for the first example of a type, `<type>--<variant>` for the others. */
  readonly name: string;
  /** One line: what the example shows. */
  readonly summary: string;
  readonly event: { readonly type: T; readonly content: EventContent<T> };
}

// @__NO_SIDE_EFFECTS__
function example<T extends EventType>(
  type: T,
  summary: string,
  content: EventContent<T>,
  variant?: string,
): EventExample<T> {
  return { name: variant === undefined ? type : `${type}--${variant}`, summary, event: { type, content } };
}

const supportAgents = ["agent-2291", "agent-3107"];

/** Every example event: the first of each type is named after it. */
export const eventExamples: readonly EventExample[] = [
  example("s.change", "A user's profile changed", {
    id: "user-4821",
    type: "users",
    relationship: "profile",
  }),
  example("s.presence", "A user came online", { status: "ONLINE" }),
  example("s.delete", "A message is deleted (the content is the service's own: any JSON value)", {
    eventId: "01JD8X5QK3M2A7R9T4W6Y8Z0BC",
  }),
  example("s.form.submission", "A customer submitted a callback form (any JSON value)", {
    formId: "callback-request",
    fields: { name: "Dana Whitfield", phone: "+44 20 7946 0958", topic: "billing" },
  }),
  example("s.support.open", "A support conversation was opened (any JSON value)", {
    queue: "billing",
  }),
  example("s.receipt", "A user read the room up to here", {}),
  example("s.room.close", "A room was closed", {}),
  example("s.room.typing", "Someone is typing", {}),
  example("s.message.preview.track", "A link preview was opened", {}),
  example("s.support.inactive", "A support conversation went quiet", {}),
  example("s.form", "A form shown inline in the conversation", {
    formId: "callback-request",
    inline: true,
  }),
  example("s.invitation", "An invitation into a room", {
    roomId: "room-9c2e71",
    inviterId: "agent-2291",
  }),
  example("s.mention", "A mention of an earlier message", { eventId: "01JD8X2B7F0R3N5P8Q1S4V6W9Y" }),
  example("s.message.text", "A text message with its format", {
    body: "Hi Dana, your replacement card is on its way 💳",
    format: "text/plain",
  }),
  example("s.message.text.translation", "A German translation of a message", {
    body: "Hallo Dana, Ihre Ersatzkarte ist unterwegs",
    format: "text/plain",
    sourceLanguage: "en",
    targetLanguage: "de",
  }),
  example("s.message.media", "A photo with a label", {
    label: "Receipt, 14 March",
    mediaId: "media-5f81c2",
  }),
  example(
    "s.message.media",
    "A document with a body instead of a label",
    { body: "Here is the signed contract.", mediaId: "media-77a0d9" },
    "with-body",
  ),
  example("s.message.edit", "A text message corrected", {
    body: "Hi Dana, your replacement card arrives on Friday",
    editedType: "s.message.text",
  }),
  example("s.message.preview", "A link preview", {
    url: "https://help.example.com/cards/replacement",
    title: "Replacing a lost card",
    description: "What to do when your card is lost or stolen.",
    image: "https://help.example.com/images/card.png",
  }),
  example("s.message.action", "Buttons: one choice among a few", {
    type: "button",
    body: "How would you like to continue?",
    writeable: ["customer"],
    options: [
      { value: "call", label: "Call me back" },
      { value: "chat", label: "Keep chatting" },
    ],
  }),
  example(
    "s.message.action",
    "A one-line text input",
    { type: "text", body: "What is your order number?", writeable: ["customer"], required: true },
    "text",
  ),
  example(
    "s.message.action",
    "A multi-line text input, formatted as HTML",
    {
      type: "textarea",
      body: "<p>Tell us what happened</p>",
      writeable: ["customer"],
      format: "text/html",
    },
    "textarea",
  ),
  example(
    "s.message.action",
    "An e-mail input",
    { type: "email", body: "Where should we send the receipt?", writeable: ["customer"], label: "E-mail" },
    "email",
  ),
  example(
    "s.message.action",
    "A date picker with a suggested date",
    {
      type: "date",
      body: "When should we call you back?",
      writeable: ["customer"],
      min: "2026-11-23T08:00:00Z",
      max: "2026-11-30T18:00:00Z",
      center: "2026-11-24T10:00:00+01:00",
    },
    "date",
  ),
  example(
    "s.message.action",
    "A yes/no question (its options may come in either order)",
    {
      type: "boolean",
      body: "Was this helpful?",
      writeable: ["customer"],
      options: [
        { label: "Yes", value: "true" },
        { label: "No", value: "false" },
      ],
    },
    "boolean",
  ),
  example(
    "s.message.action",
    "Links, one of them without a URL",
    {
      type: "link",
      body: "Useful pages",
      writeable: ["customer"],
      options: [
        { value: "fees", label: "Fees", url: "https://help.example.com/fees" },
        { value: "contact", label: "Contact us", url: null },
      ],
    },
    "link",
  ),
  example(
    "s.message.action",
    "A select that allows several answers, repeatable",
    {
      type: "select",
      body: "Which topics is it about?",
      writeable: ["customer", ...supportAgents],
      multiple: true,
      repeatable: true,
      options: [
        { value: "billing", label: "Billing" },
        { value: "cards", label: "Cards" },
        { value: "app", label: "The app" },
      ],
    },
    "select",
  ),
  example("s.message.action.invocation", "The answer to a select with several choices", {
    value: ["billing", "cards"],
    label: "Billing, Cards",
  }),
  example("s.message.action.invocation.validation", "An answer refused, with the reason", {
    result: "FAILURE",
    reason: "Please choose at most two topics",
  }),
  example("s.room.blocked", "A room was blocked", { value: true }),
  example("s.room.pin", "A room was pinned", { value: true }),
  example("s.room.setting", "A room setting was turned off", { value: false }),
  example("s.room.user.setting", "A user's setting for a room was turned on", { value: true }),
  example("s.room.create", "A room was created", { creatorId: "user-4821" }),
  example("s.room.membership", "A bot joined a room on its own", {
    membership: "join",
    initiatorId: "user-4821",
    sticky: false,
    assignee: "Bot",
    trigger: "Auto",
  }),
  example(
    "s.room.membership",
    "An agent left a room by hand",
    { membership: "leave", assignee: "Agent", trigger: "Manual" },
    "leave",
  ),
  example(
    "s.room.membership",
    "A user invited into a room",
    { membership: "invite", inviteeId: "user-5120" },
    "invite",
  ),
  example("s.support.close", "A support conversation closed by an agent", { trigger: "Manual" }),
  example("s.support.delegate", "A conversation handed to an agent", {
    type: "Agent",
    agentId: "agent-3107",
  }),
  example("s.support.request", "A request for a live chat, with the customer's answers", {
    liveChatId: "livechat-billing",
    preconditions: { language: "en", topic: "billing", customerTier: "gold" },
  }),
  example("s.support.request.rejected", "A support request outside business hours", {
    reason: "OUTSIDE_BUSINESS_HOURS",
  }),
  example("s.timer", "A running timer with its expiry", {
    status: "RUNNING",
    expires: "2026-11-22T18:30:00Z",
  }),
  example("s.timer", "A timer cancelled before it expired", { status: "CANCELLED" }, "cancelled"),
  example("s.timer", "A timer that expired", { status: "EXPIRED" }, "expired"),
];
