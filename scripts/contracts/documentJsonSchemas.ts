/**
 * The JSON Schema of the three JSON:API documents of `POST /events`, with the default attribute
 * names (`eventType`, `content`): the request (`event-document.json`, from `eventDocumentSchema`),
 * the created event the server answers with (`event-resource-document.json`, from
 * `eventResourceDocumentSchema`) and the error document (`error-document.json`). The JSON:API rules
 * that the library checks in code come from the checks' hints (checkKeywords.ts). Each carries
 * examples: the example events as documents, and real error documents of the library.
 */
import * as z from "zod/mini";
import { safeParseEventContent } from "../../src/events/index.js";
import {
  createEventDocument,
  eventDocumentSchema,
  eventResourceDocumentSchema,
  toJsonApiErrors,
} from "../../src/jsonapi/index.js";
import { addCheckKeywords } from "./checkKeywords.js";
import { errorDocumentSchema } from "./errorDocumentSchema.js";
import { eventExamples } from "./eventExamples.js";
import { DIALECT, type JsonSchemaDocument, schemaIdOf, withoutDocumentKeywords } from "./jsonSchemaBasics.js";

export const EVENT_DOCUMENT_FILE = "event-document.json";
export const EVENT_RESOURCE_DOCUMENT_FILE = "event-resource-document.json";
export const ERROR_DOCUMENT_FILE = "error-document.json";

/**
 * The variants of the attributes are objects that each carry the same `propertyNames` (the field-name
 * check sits on every variant); one copy beside the `oneOf` means the same (a name that fails it
 * fails every variant) and spares 31 copies.
 */
function hoistSharedPropertyNames(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  for (const child of Object.values(node)) hoistSharedPropertyNames(child);
  const schema = node as JsonSchemaDocument;
  if (!Array.isArray(schema.oneOf)) return;
  const branches = schema.oneOf as JsonSchemaDocument[];
  const shared = JSON.stringify(branches[0]?.propertyNames);
  if (shared === undefined || !branches.every((branch) => JSON.stringify(branch.propertyNames) === shared))
    return;
  if (!branches.every((branch) => branch.type === "object")) return;
  for (const branch of branches) delete branch.propertyNames;
  const { oneOf } = schema;
  delete schema.oneOf;
  // Every variant is an object, so the names apply to an object here too (strict validators ask to be told).
  schema.type = "object";
  schema.propertyNames = JSON.parse(shared) as unknown;
  schema.oneOf = oneOf;
}

function generated(schema: z.core.$ZodType): JsonSchemaDocument {
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    unrepresentable: "throw",
    override: addCheckKeywords,
  }) as JsonSchemaDocument;
  hoistSharedPropertyNames(json);
  return withoutDocumentKeywords(json);
}

/** The example events as request documents, each with a relationship to its room. */
export function exampleRequestDocuments(): unknown[] {
  return eventExamples.map(({ event }, index) =>
    createEventDocument({
      ...event,
      relationships: { room: { data: { type: "rooms", id: "room-9c2e71" } } },
      idempotencyKey: `7f9c2ba4-e88f-4c1d-9b3a-${String(index).padStart(12, "0")}`,
    }),
  );
}

/** The examples of the created event: a text message with its key, and a room closed without one. */
export function exampleResourceDocuments(): unknown[] {
  const [text, close] = [
    eventExamples.find((example) => example.name === "s.message.text")!,
    eventExamples.find((example) => example.name === "s.room.close")!,
  ];
  const withKey = createEventDocument({
    ...text.event,
    idempotencyKey: "7f9c2ba4-e88f-4c1d-9b3a-5d1e0c6a4f21",
  });
  const withoutKey = createEventDocument({
    ...close.event,
    relationships: { room: { data: { type: "rooms", id: "room-9c2e71" } } },
  });
  return [
    { data: { id: "01JDA3W9Q4C8K2M5N7P0R3S6T9", ...withKey.data } },
    { data: { id: "01JDA3XB2E5G8J1L4N6Q9S2U5W", ...withoutKey.data } },
  ];
}

/** Real error documents of the library: the 422 `toJsonApiErrors` writes for invalid content. */
export function exampleErrorDocuments(): unknown[] {
  const invalid = safeParseEventContent("s.message.text", { body: 42, format: "x".repeat(101) });
  if (invalid.success) throw new Error("the example of invalid content is valid");
  return [toJsonApiErrors(invalid.error)];
}

/** `event-document.json`: the request document of `POST /events`. */
export function eventDocumentJsonSchema(): JsonSchemaDocument {
  return {
    $schema: DIALECT,
    $id: schemaIdOf(EVENT_DOCUMENT_FILE),
    title: "Event request document",
    description:
      'The JSON:API document of POST /events: one resource of type "events" whose attributes eventType and content carry the event, the content checked against the schema of its type; data.meta["idempotency-key"] repeats the Service-Idempotency-Key header.',
    ...generated(eventDocumentSchema),
    examples: exampleRequestDocuments(),
  };
}

/** `event-resource-document.json`: the created event the server answers with. */
export function eventResourceDocumentJsonSchema(): JsonSchemaDocument {
  return {
    $schema: DIALECT,
    $id: schemaIdOf(EVENT_RESOURCE_DOCUMENT_FILE),
    title: "Created event document",
    description:
      'The JSON:API document of a created event: the resource with its id (1 to 26 characters, not blank), type "events", the attributes eventType and content, and data.meta["idempotency-key"] echoing the key it was created with.',
    ...generated(eventResourceDocumentSchema),
    examples: exampleResourceDocuments(),
  };
}

/** `error-document.json`: the JSON:API error document of every failed `POST /events`. */
export function errorDocumentJsonSchema(): JsonSchemaDocument {
  return {
    $schema: DIALECT,
    $id: schemaIdOf(ERROR_DOCUMENT_FILE),
    title: "Error document",
    description:
      "The JSON:API error document the server answers a failed POST /events with: each error has the HTTP status as a string, a stable code, a title and a detail, and source.pointer into the request document for a problem in it.",
    ...generated(errorDocumentSchema),
    examples: exampleErrorDocuments(),
  };
}
