/**
 * The examples the package ships (`messaging-events/examples/…`, and `examples` in the schemas):
 * one at least per event type and per webhook type, the variants a receiver must handle, each one
 * valid under the library and under Ajv on the shipped JSON Schema (Python's jsonschema checks them
 * in python.test.ts). The documents built from them, and their signed copies, are valid too.
 */
import { describe, expect, it } from "vitest";
import {
  exampleErrorDocuments,
  exampleRequestDocuments,
  exampleResourceDocuments,
} from "../../scripts/contracts/documentJsonSchemas.js";
import { eventExamples } from "../../scripts/contracts/eventExamples.js";
import { webhookExamples } from "../../scripts/contracts/webhookExamples.js";
import { EXAMPLE_SECRET, signedExample } from "../../scripts/contracts/webhookHeaders.js";
import { eventTypes, safeParseEvent } from "../../src/events/index.js";
import { safeParseEventDocument, safeParseEventResource } from "../../src/jsonapi/index.js";
import { safeParseWebhookPayload, safeVerifyWebhook, webhookEventTypes } from "../../src/webhooks/index.js";
import { compileShippedSchemas, createAjv, readShippedSchema } from "../support/ajv.js";
import { libraryAccepts } from "./contractInputs.js";

const ajv = compileShippedSchemas();
const payloadAjv = createAjv();
const anyPayload = payloadAjv.compile(readShippedSchema("webhook-payload.json"));
const payloadOf = new Map(
  webhookEventTypes.map((type) => [
    type,
    payloadAjv.compile(readShippedSchema(`webhook-payload.${type}.json`)),
  ]),
);

const variants = (name: string) => eventExamples.filter((example) => example.name.startsWith(`${name}--`));

describe("the shipped examples", () => {
  it("have one example named after each of the 32 event types and of the 7 webhook types, and unique names", () => {
    const eventNames = eventExamples.map((example) => example.name);
    const webhookNames = webhookExamples.map((example) => example.name);
    expect(new Set(eventNames).size).toBe(eventNames.length);
    expect(new Set(webhookNames).size).toBe(webhookNames.length);
    for (const type of eventTypes) expect(eventNames, type).toContain(type);
    for (const type of webhookEventTypes) expect(webhookNames, type).toContain(type);
    for (const example of [...eventExamples]) {
      expect(example.name.split("--")[0], example.name).toBe(example.event.type);
    }
    for (const example of webhookExamples) {
      expect(example.name.split("--")[0], example.name).toBe(example.payload.type);
    }
    expect(eventExamples.length).toBe(44);
    expect(webhookExamples.length).toBe(11);
  });

  it("cover the cases a receiver must handle: media with a label and with a body, every action, every membership, both timer variants", () => {
    const contentOf = (name: string) => eventExamples.find((example) => example.name === name)?.event.content;
    expect(contentOf("s.message.media")).toHaveProperty("label");
    expect(contentOf("s.message.media--with-body")).toHaveProperty("body");
    const actions = [
      contentOf("s.message.action"),
      ...variants("s.message.action").map((e) => e.event.content),
    ];
    expect(new Set(actions.map((content) => (content as { type: string }).type))).toEqual(
      new Set(["text", "textarea", "email", "date", "boolean", "button", "link", "select"]),
    );
    const memberships = [
      contentOf("s.room.membership"),
      ...variants("s.room.membership").map((e) => e.event.content),
    ];
    expect(memberships.map((content) => (content as { membership: string }).membership).sort()).toEqual([
      "invite",
      "join",
      "leave",
    ]);
    const timers = [contentOf("s.timer"), ...variants("s.timer").map((e) => e.event.content)];
    expect(timers.map((content) => (content as { status: string }).status).sort()).toEqual([
      "CANCELLED",
      "EXPIRED",
      "RUNNING",
    ]);
    const webhookContent = (name: string) =>
      webhookExamples.find((example) => example.name === name)?.payload;
    expect(webhookContent("s.message.media")?.content).toHaveProperty("label");
    expect(webhookContent("s.message.media--with-body")?.content).toHaveProperty("body");
    expect(
      webhookExamples
        .filter((example) => example.payload.type === "s.room.membership")
        .map((example) => (example.payload.content as { membership: string }).membership)
        .sort(),
    ).toEqual(["invite", "join", "leave"]);
  });

  it.each(eventExamples.map((example) => [example.name, example] as const))(
    "event %s is valid under the library and Ajv (its content file and event.json)",
    (_name, { event }) => {
      expect(safeParseEvent(event).error?.issues).toBeUndefined();
      expect(ajv.content(event.type)(event.content), JSON.stringify(ajv.content(event.type).errors)).toBe(
        true,
      );
      expect(ajv.event(event)).toBe(true);
    },
  );

  it.each(webhookExamples.map((example) => [example.name, example] as const))(
    "webhook %s is valid under the library and Ajv (its type's file and webhook-payload.json), and signed it verifies",
    async (_name, { payload }) => {
      expect(safeParseWebhookPayload(payload).error?.issues).toBeUndefined();
      expect(payloadOf.get(payload.type)!(payload)).toBe(true);
      expect(anyPayload(payload)).toBe(true);
      const signed = await signedExample(payload, "delivery-1");
      const verified = await safeVerifyWebhook({
        body: signed.body,
        headers: signed.headers,
        secret: EXAMPLE_SECRET,
        now: new Date("2026-11-22T18:00:01Z"),
      });
      expect(verified.success).toBe(true);
    },
  );

  it("as documents: every request, response and error example of the schemas is valid under the library and Ajv", () => {
    const documentAjv = createAjv();
    const request = documentAjv.compile(readShippedSchema("event-document.json"));
    const resource = documentAjv.compile(readShippedSchema("event-resource-document.json"));
    const error = documentAjv.compile(readShippedSchema("error-document.json"));
    const requests = exampleRequestDocuments();
    expect(requests).toHaveLength(eventExamples.length);
    for (const document of requests) {
      expect(safeParseEventDocument(document).success).toBe(true);
      expect(request(document), JSON.stringify(request.errors)).toBe(true);
    }
    for (const document of exampleResourceDocuments()) {
      expect(safeParseEventResource(document).success).toBe(true);
      expect(resource(document), JSON.stringify(resource.errors)).toBe(true);
    }
    for (const document of exampleErrorDocuments()) {
      expect(libraryAccepts("error-document.json", document)).toBe(true);
      expect(error(document)).toBe(true);
    }
  });

  it("are the `examples` of the schemas, each valid under the library", () => {
    for (const [file, examples] of [
      ["event-document.json", exampleRequestDocuments()],
      ["event-resource-document.json", exampleResourceDocuments()],
      ["error-document.json", exampleErrorDocuments()],
      ["webhook-payload.json", webhookExamples.map((example) => example.payload)],
    ] as const) {
      expect(readShippedSchema(file).examples, file).toEqual(examples);
      for (const example of examples) expect(libraryAccepts(file, example), file).toBe(true);
    }
    for (const type of webhookEventTypes) {
      const file = `webhook-payload.${type}.json`;
      const examples = readShippedSchema(file).examples as unknown[];
      expect(examples.length, file).toBeGreaterThan(0);
      for (const example of examples) expect(libraryAccepts(file, example), file).toBe(true);
    }
  });
});
