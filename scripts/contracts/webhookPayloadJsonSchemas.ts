/**
 * The JSON Schema of the webhook payload, generated from the library's own schema
 * (`webhookPayloadSchema`): one file per webhook type (`webhook-payload.<type>.json`), and
 * `webhook-payload.json` for any payload, which picks the type's schema by `type` as `event.json`
 * picks a content schema. Each carries the example payloads of its type.
 */
import * as z from "zod/mini";
import { type WebhookEventType, webhookEventTypes, webhookPayloadSchema } from "../../src/webhooks/index.js";
import { addCheckKeywords } from "./checkKeywords.js";
import { DIALECT, type JsonSchemaDocument, schemaIdOf, withoutDocumentKeywords } from "./jsonSchemaBasics.js";
import { webhookExamples } from "./webhookExamples.js";

/** The file of one webhook type's payload schema. */
export const webhookPayloadFile = (type: WebhookEventType): string => `webhook-payload.${type}.json`;

/** The file of the schema of any payload. */
export const WEBHOOK_PAYLOAD_FILE = "webhook-payload.json";

/** What each webhook type announces, in the service's words. */
export const webhookSummaries: Record<WebhookEventType, string> = {
  "s.room.create": "A room was created.",
  "s.room.membership": "A user joined, left or was invited to a room.",
  "s.message.text": "A text message was created.",
  "s.message.media": "A media message was created.",
  "s.message.edit": "A message was edited.",
  "s.message.delete": "A message was removed. Its content is not described: any JSON value.",
  "s.room.close": "A room was closed.",
};

const payloadExamples = (type?: WebhookEventType) =>
  webhookExamples
    .filter((example) => type === undefined || example.payload.type === type)
    .map((e) => e.payload);

/** The variant of the library's discriminated union for one webhook type. */
function variantOf(type: WebhookEventType): z.core.$ZodType {
  const options = (webhookPayloadSchema._zod.def as { options: z.core.$ZodType[] }).options;
  const variant = options[webhookEventTypes.indexOf(type)];
  if (variant === undefined) throw new Error(`the payload schema has no variant for ${type}`);
  return variant;
}

/** The payload schema of one webhook type, as a standalone document with its examples. */
export function webhookPayloadJsonSchema(type: WebhookEventType): JsonSchemaDocument {
  const generated = z.toJSONSchema(variantOf(type), {
    target: "draft-2020-12",
    unrepresentable: "throw",
    override: addCheckKeywords,
  }) as JsonSchemaDocument;
  return {
    $schema: DIALECT,
    $id: schemaIdOf(webhookPayloadFile(type)),
    title: `${type} webhook payload`,
    description: `${webhookSummaries[type]} The body of the webhook the service sends for a new ${type} event: version 2; members the service does not list are allowed.`,
    ...withoutDocumentKeywords(generated),
    examples: payloadExamples(type),
  };
}

/**
 * The schema of any payload: `type` is one of the seven webhook types, and selects that type's
 * schema under `$defs` through `if`/`then`, so a bad payload gets the errors of its own type only.
 */
export function anyWebhookPayloadJsonSchema(): JsonSchemaDocument {
  const defs: Record<string, JsonSchemaDocument> = {};
  for (const type of webhookEventTypes) {
    const { examples: _examples, ...schema } = withoutDocumentKeywords(webhookPayloadJsonSchema(type));
    defs[type] = schema;
  }
  return {
    $schema: DIALECT,
    $id: schemaIdOf(WEBHOOK_PAYLOAD_FILE),
    title: "Webhook payload",
    description:
      "The body of a webhook the service sends: its type selects the schema of that type's payload among this document's definitions.",
    type: "object",
    properties: { type: { description: "The webhook type.", enum: [...webhookEventTypes] } },
    required: ["type"],
    allOf: webhookEventTypes.map((type) => ({
      if: { properties: { type: { const: type } }, required: ["type"] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in plain data nobody awaits.
      then: { $ref: `#/$defs/${type}` },
    })),
    $defs: defs,
    examples: payloadExamples(),
  };
}
