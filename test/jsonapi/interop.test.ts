/**
 * Documents that tools nobody here wrote accept: the official JSON:API schema (the `schema.json`
 * that `jsonapi-validator` ships, with its own Ajv), and the JSON:API clients `jsona` and
 * `kitsu-core`, used as their users would use them.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { Jsona } from "jsona";
import * as kitsu from "kitsu-core";
import { describe, expect, it } from "vitest";
import { type EventType, eventTypes, safeParseEventContent } from "../../src/events/index.js";
import {
  createEventDocument,
  parseEventDocument,
  parseEventResource,
  safeParseEventDocument,
  safeParseEventResource,
  toJsonApiErrors,
} from "../../src/jsonapi/index.js";
import { conformanceCases } from "../conformance/cases.js";
import { validContent } from "../support/validContent.js";

// kitsu-core's declarations use extensionless paths that NodeNext cannot follow: state its two functions.
const { serialise, deserialise } = kitsu as unknown as {
  serialise(type: string, data: Record<string, unknown>, method?: string): unknown;
  deserialise(document: unknown): unknown;
};

const require = createRequire(import.meta.url);
const { Validator } = require("jsonapi-validator") as {
  Validator: new (
    schema?: object,
  ) => { validate(document: unknown): void; isValid(document: unknown): boolean };
};
const officialSchema = require("jsonapi-validator/lib/schema.json") as {
  definitions: Record<string, { required?: string[] }>;
};

/** The official schema describes responses; a create request is the one place a resource may lack its id. */
const requestSchema = structuredClone(officialSchema);
requestSchema.definitions.resource!.required = ["type"];
const responses = new Validator();
const requests = new Validator(requestSchema);

function expectValid(validator: InstanceType<typeof Validator>, document: unknown): void {
  try {
    validator.validate(JSON.parse(JSON.stringify(document)));
  } catch (error) {
    throw new Error(
      `not valid JSON:API: ${JSON.stringify((error as { errors?: unknown }).errors)}\n${JSON.stringify(document)}`,
    );
  }
}

/** What the value is once it has crossed the wire (-0 becomes 0). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const parseable = (document: unknown): boolean => safeParseEventResource(document).success;

const asResource = <D extends { data: object }>(document: D, id: string) => ({
  data: { id, ...document.data } as D["data"] & { id: string },
});

describe("the official JSON:API schema accepts every document the library writes", () => {
  it("it refuses the old reading, with the event type in attributes.type (the check bites)", () => {
    const old = { data: { id: "1", type: "events", attributes: { type: "s.room.close", content: {} } } };
    expect(responses.isValid(old)).toBe(false);
  });

  it("request documents and resources for every valid row of the conformance table", () => {
    let checked = 0;
    for (const row of conformanceCases) {
      if (!row.valid) continue;
      const document = createEventDocument({
        type: row.type,
        content: row.content as never,
        idempotencyKey: "order-42",
      });
      expectValid(requests, document);
      expectValid(responses, asResource(document, "01JD8X5QK3M2"));
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("request documents and resources for generated content of every type", () => {
    for (const type of eventTypes) {
      fc.assert(
        fc.property(validContent[type], (content) => {
          const document = createEventDocument({
            type,
            content: content as never,
            relationships: { room: { data: { type: "rooms", id: "room-1" } } },
            attributes: { channel: "web" },
          });
          expectValid(requests, document);
          expectValid(responses, asResource(document, "1"));
        }),
        { numRuns: 40 },
      );
    }
  });

  it("error documents for every invalid row of the conformance table", () => {
    for (const row of conformanceCases) {
      if (row.valid) continue;
      const result = safeParseEventContent(row.type, row.content);
      expect(result.success).toBe(false);
      expectValid(responses, toJsonApiErrors(result.error));
    }
    expectValid(responses, toJsonApiErrors(new Error("anything else")));
    const many = safeParseEventContent("s.message.action", {
      type: "text",
      body: "x",
      writeable: Array(500).fill(0),
    });
    expectValid(responses, toJsonApiErrors(many.error));
  });

  it("every document the library accepts, the official schema accepts too (generated envelopes)", () => {
    const name = fc.constantFrom(
      "room",
      "author",
      "a-b",
      "x_1",
      "type",
      "id",
      "_hidden",
      "links",
      "a b",
      "é",
    );
    const link = fc.oneof(
      fc.constant("https://x.example/1"),
      fc.record({ href: fc.constant("/1") }),
      fc.constant(5),
      fc.constant(null),
    );
    const identifier = fc.oneof(
      fc.record({ type: fc.constant("rooms"), id: fc.constant("r1") }),
      fc.record({ type: fc.constant("rooms") }),
      fc.record({ type: fc.constant("rooms"), id: fc.constant("r1"), extra: fc.constant(1) }),
      fc.constant(5),
    );
    const relationship = fc.oneof(
      fc.record(
        { data: fc.oneof(fc.constant(null), identifier, fc.array(identifier, { maxLength: 2 })) },
        { requiredKeys: [] },
      ),
      fc.record(
        { links: fc.dictionary(name, link, { maxKeys: 2 }), meta: fc.constant({}) },
        { requiredKeys: [] },
      ),
      fc.constant({ foo: 1 }),
    );
    const envelope = fc.record(
      {
        relationships: fc.dictionary(name, relationship, { maxKeys: 2 }),
        links: fc.dictionary(name, link, { maxKeys: 2 }),
        attributes: fc.dictionary(name, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
        jsonapi: fc.oneof(
          fc.constant({ version: "1.0" }),
          fc.constant({ version: 5 }),
          fc.constant({ other: 1 }),
        ),
        topMeta: fc.constant({ page: 1 }),
        extra: fc.constant(1),
      },
      { requiredKeys: [] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(envelope, (parts) => {
        const data: Record<string, unknown> = {
          type: "events",
          attributes: { ...parts.attributes, eventType: "s.delete", content: { messageId: "m1" } },
        };
        if (parts.relationships) data.relationships = parts.relationships;
        if (parts.links) data.links = parts.links;
        const document: Record<string, unknown> = { data };
        if (parts.jsonapi) document.jsonapi = parts.jsonapi;
        if (parts.topMeta) document.meta = parts.topMeta;
        if (parts.extra) document.extra = parts.extra;
        const json = JSON.parse(JSON.stringify(document));
        if (safeParseEventDocument(json).success) {
          accepted++;
          expectValid(requests, json);
        }
        const resource = { ...json, data: { id: "1", ...json.data } };
        if (parseable(resource)) expectValid(responses, resource);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(20);
  });

  it("content is the service's: members JSON:API reserves elsewhere are kept untouched inside it", () => {
    const content = {
      body: "see",
      annotations: { links: { self: "x" }, relationships: [1], type: "t", id: 2 },
    };
    const document = createEventDocument({ type: "s.message.text", content });
    expect(document.data.attributes.content).toEqual(content);
    expect(parseEventDocument(JSON.parse(JSON.stringify(document))).data.attributes.content).toEqual(content);
  });
});

describe("jsona", () => {
  const jsona = new Jsona();

  it("serialises a create request that parseEventDocument accepts, and deserialises the resource", () => {
    for (const type of eventTypes) {
      fc.assert(
        fc.property(validContent[type].map(asJson), (content) => {
          const model = {
            type: "events",
            eventType: type,
            content,
            room: { type: "rooms", id: "room-42" },
            relationshipNames: ["room"],
          };
          const body = jsona.serialize({ stuff: model });
          const parsed = parseEventDocument(JSON.parse(JSON.stringify(body)));
          expect(parsed.data.attributes.eventType).toBe(type);
          expect(parsed.data.attributes.content).toEqual(content);
          expect(parsed.data.relationships).toEqual({ room: { data: { type: "rooms", id: "room-42" } } });

          const resource = asResource(createEventDocument({ type, content: content as never }), "01JD8X");
          const back = jsona.deserialize(JSON.parse(JSON.stringify(resource))) as Record<string, unknown>;
          expect(back.type).toBe("events");
          expect(back.id).toBe("01JD8X");
          expect(back.eventType).toBe(type);
          expect(back.content).toEqual(content);
        }),
        { numRuns: 15 },
      );
    }
  });
});

describe("kitsu-core", () => {
  it("serialise builds a create request that parseEventDocument accepts; deserialise reads the resource", () => {
    for (const type of eventTypes) {
      fc.assert(
        fc.property(validContent[type].map(asJson), (content) => {
          const body = serialise(
            "events",
            { eventType: type, content, meta: { "idempotency-key": "order-42" } },
            "POST",
          );
          const result = safeParseEventDocument(JSON.parse(JSON.stringify(body)));
          expect(result.error?.message).toBeUndefined();
          expect(result.data?.data.attributes.eventType).toBe(type);
          expect(result.data?.data.attributes.content).toEqual(content);
          expect(result.data?.data.meta).toEqual({ "idempotency-key": "order-42" });

          const resource = asResource(createEventDocument({ type, content: content as never }), "01JD8X");
          const { data } = deserialise(JSON.parse(JSON.stringify(resource))) as {
            data: Record<string, unknown>;
          };
          expect(data.type).toBe("events");
          expect(data.id).toBe("01JD8X");
          expect(data.eventType).toBe(type);
          expect(data.content).toEqual(content);
        }),
        { numRuns: 15 },
      );
    }
  });

  it("a round trip through the library, kitsu and back loses nothing, for every type", () => {
    for (const type of eventTypes as readonly EventType[]) {
      fc.assert(
        fc.property(validContent[type], (content) => {
          const resource = asResource(createEventDocument({ type, content: content as never }), "1");
          const { data } = deserialise(JSON.parse(JSON.stringify(resource))) as {
            data: Record<string, unknown>;
          };
          const { id: _id, type: _type, ...attributes } = data;
          const again = JSON.parse(JSON.stringify(serialise("events", attributes, "POST"))) as {
            data: object;
          };
          // Compared as JSON: a JSON round trip cannot keep what JSON cannot write (-0 becomes 0).
          expect(parseEventResource(asResource(again, "1")).data.attributes).toEqual(
            JSON.parse(JSON.stringify(resource.data.attributes)),
          );
        }),
        { numRuns: 10 },
      );
    }
  });
});
