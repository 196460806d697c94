/**
 * Generates the JSON Schema (draft 2020-12) that ships in `dist/json-schema/`: one file per event
 * type for its content, and `event.json`, a bundle with every content schema under `$defs`, picked
 * by the event's `type`; then the files of scripts/contracts/: the webhook payload (one per webhook
 * type, and any payload) and the JSON:API documents of `POST /events`. Everything comes from the Zod
 * schemas themselves; the rules Zod cannot express natively (code-point lengths, the media rule, the
 * boolean options, any JSON value) carry their JSON Schema form with them, so nothing is patched here.
 */
import * as z from "zod/mini";
import { type EventType, eventContentSchemas, eventScope, eventTypes } from "../src/events/index.js";
import { webhookEventTypes } from "../src/webhooks/index.js";
import {
  ERROR_DOCUMENT_FILE,
  EVENT_DOCUMENT_FILE,
  EVENT_RESOURCE_DOCUMENT_FILE,
  errorDocumentJsonSchema,
  eventDocumentJsonSchema,
  eventResourceDocumentJsonSchema,
} from "./contracts/documentJsonSchemas.js";
import { DIALECT, type JsonSchemaDocument } from "./contracts/jsonSchemaBasics.js";
import {
  anyWebhookPayloadJsonSchema,
  WEBHOOK_PAYLOAD_FILE,
  webhookPayloadFile,
  webhookPayloadJsonSchema,
} from "./contracts/webhookPayloadJsonSchemas.js";

export type { JsonSchemaDocument };

/** The `$id` of the content schema of a type, and of the bundle. */
export const contentSchemaId = (type: EventType): string => `urn:messaging-events:json-schema:${type}`;
export const EVENT_SCHEMA_ID = "urn:messaging-events:json-schema:event";

const summaries: Record<EventType, string> = {
  "s.change": "A change to a resource (global scope).",
  "s.presence": "A user's presence status (global scope).",
  "s.delete": "A deletion. The spec gives an empty schema: any JSON value.",
  "s.form.submission": "A form submission. The spec gives an empty schema: any JSON value.",
  "s.support.open": "A support conversation was opened. The spec gives an empty schema: any JSON value.",
  "s.receipt": "A receipt. An object with no properties.",
  "s.room.close": "A room was closed. An object with no properties.",
  "s.room.typing": "Someone is typing in a room. An object with no properties.",
  "s.message.preview.track": "A link preview was tracked. An object with no properties.",
  "s.support.inactive": "A support conversation became inactive. An object with no properties.",
  "s.form": "A form posted into a room.",
  "s.invitation": "An invitation into a room.",
  "s.mention": "A mention of another event.",
  "s.message.text": "A text message. Additional properties are allowed.",
  "s.message.text.translation": "A translation of a text message.",
  "s.message.media":
    "A media message: mediaId plus exactly one of label or body. Additional properties are allowed.",
  "s.message.edit": "An edit of a text or media message.",
  "s.message.preview": "A link preview. Additional properties are allowed.",
  "s.message.action": "An interactive element (input, date picker, buttons, links, select), chosen by type.",
  "s.message.action.invocation": "A user's answer to an action.",
  "s.message.action.invocation.validation": "The result of validating an action invocation.",
  "s.room.blocked": "Whether a room is blocked.",
  "s.room.pin": "Whether a room is pinned.",
  "s.room.setting": "A room setting.",
  "s.room.user.setting": "A user's setting for a room.",
  "s.room.create": "A room was created.",
  "s.room.membership": "A user joined, left or was invited to a room, chosen by membership.",
  "s.support.close": "A support conversation was closed.",
  "s.support.delegate": "A support conversation was delegated to an agent or a CRM.",
  "s.support.request": "A request for a support conversation.",
  "s.support.request.rejected": "A support request was rejected.",
  "s.timer": "A timer: running until expires, or cancelled or expired.",
};

/** The content schema of one event type, without the document keywords (`$schema`, `$id`). */
function contentSchemaBody(type: EventType): JsonSchemaDocument {
  const generated = z.toJSONSchema(eventContentSchemas[type], {
    target: "draft-2020-12",
    unrepresentable: "throw",
  }) as JsonSchemaDocument;
  const { $schema: _dialect, ...body } = generated;
  return {
    title: `${type} content`,
    description: `${summaries[type]} Scope: ${eventScope(type)}.`,
    ...body,
  };
}

/** The standalone JSON Schema document for the content of one event type. */
export function contentJsonSchema(type: EventType): JsonSchemaDocument {
  return { $schema: DIALECT, $id: contentSchemaId(type), ...contentSchemaBody(type) };
}

/**
 * The bundle: every content schema under `$defs`, and the event `{ type, content }` whose `type` is
 * one of the known types and whose `content` is checked against the schema of that type alone. The
 * type selects the content schema through `if`/`then` (one per type, in an `allOf`) rather than a
 * `oneOf` over whole events, so a validator reports the errors of the event's own type only, and
 * checks one content schema per event instead of trying all of them.
 */
export function eventJsonSchema(): JsonSchemaDocument {
  const defs: Record<string, JsonSchemaDocument> = {};
  for (const type of eventTypes) defs[type] = contentSchemaBody(type);
  return {
    $schema: DIALECT,
    $id: EVENT_SCHEMA_ID,
    title: "Event",
    description:
      "An event of the messaging service: its type and its content, checked against that type's schema.",
    type: "object",
    properties: {
      type: { description: "The event type.", enum: [...eventTypes] },
      content: { description: "The content, checked against the schema of the event's type under $defs." },
    },
    required: ["type", "content"],
    additionalProperties: false,
    allOf: eventTypes.map((type) => ({
      if: { properties: { type: { const: type } }, required: ["type"] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in plain data nobody awaits.
      then: { properties: { content: { $ref: `#/$defs/${type}` } } },
    })),
    $defs: defs,
  };
}

/** The content schema files and `event.json`: the 33 files that validate events. */
export function eventJsonSchemaFiles(): Map<string, JsonSchemaDocument> {
  const files = new Map<string, JsonSchemaDocument>();
  for (const type of eventTypes) files.set(`${type}.json`, contentJsonSchema(type));
  files.set("event.json", eventJsonSchema());
  return files;
}

/** Every file of `dist/json-schema/`, by file name: the event files, then the payloads and documents. */
export function jsonSchemaFiles(): Map<string, JsonSchemaDocument> {
  const files = eventJsonSchemaFiles();
  for (const type of webhookEventTypes) files.set(webhookPayloadFile(type), webhookPayloadJsonSchema(type));
  files.set(WEBHOOK_PAYLOAD_FILE, anyWebhookPayloadJsonSchema());
  files.set(EVENT_DOCUMENT_FILE, eventDocumentJsonSchema());
  files.set(EVENT_RESOURCE_DOCUMENT_FILE, eventResourceDocumentJsonSchema());
  files.set(ERROR_DOCUMENT_FILE, errorDocumentJsonSchema());
  return files;
}
