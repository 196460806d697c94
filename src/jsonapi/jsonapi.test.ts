import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validContent } from "../../test/support/validContent.js";
import { type EventType, eventTypes, safeParseEventContent } from "../events/index.js";
import {
  acceptsJsonApi,
  createEventDocument,
  isJsonApiMediaType,
  JSON_API_MEDIA_TYPE,
  parseEventDocument,
  safeParseEventDocument,
  safeParseEventResource,
  toJsonApiErrors,
} from "./index.js";

const doc = (attributes: unknown, extra: Record<string, unknown> = {}) => ({
  data: { type: "events", attributes, ...extra },
});
const resource = (data: Record<string, unknown>) => ({
  data: { type: "events", attributes: { type: "s.room.close", content: {} }, ...data },
});

describe("media type (ruling 13)", () => {
  it.each([
    [JSON_API_MEDIA_TYPE, true],
    ["APPLICATION/VND.API+JSON", true],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', true],
    ['application/vnd.api+json;profile="https://example.com/a https://example.com/b"', true],
    ["application/vnd.api+json; charset=utf-8", false],
    ["application/vnd.api+json; version=1", false],
    ["application/json", false],
    ["application/vnd.api+json;", false],
    ["", false],
  ])("Content-Type %j is JSON:API: %s", (value, expected) => {
    expect(isJsonApiMediaType(value)).toBe(expected);
  });

  it.each([
    [undefined, true],
    ["", true],
    ["*/*", true],
    ["application/*;q=0.8", true],
    ["application/vnd.api+json", true],
    ["text/html, application/vnd.api+json;q=0.9", true],
    ["application/vnd.api+json; charset=utf-8", false],
    ["application/vnd.api+json; charset=utf-8, application/vnd.api+json; profile=x", true],
    ["text/html", false],
    ["application/vnd.api+json;q=0", false],
    ["*/*;q=0", false],
    ["application/vnd.api+json;q=0.5", true],
  ])("Accept %j accepts JSON:API: %s", (value, expected) => {
    expect(acceptsJsonApi(value)).toBe(expected);
  });
});

describe("createEventDocument", () => {
  it("builds the request document of spec 4.1, attributes type and content (ruling 11)", () => {
    const relationships = { room: { data: { type: "rooms", id: "room-42" } } };
    expect(
      createEventDocument({
        type: "s.message.text",
        content: { body: "Hi" },
        attributes: { channel: "web", type: "ignored" },
        relationships,
        idempotencyKey: "order-42",
      }),
    ).toEqual({
      data: {
        type: "events",
        attributes: { channel: "web", type: "s.message.text", content: { body: "Hi" } },
        relationships,
        meta: { "idempotency-key": "order-42" },
      },
    });
    expect(createEventDocument({ type: "s.room.close", content: {} })).toEqual(
      doc({ type: "s.room.close", content: {} }),
    );
  });

  it("refuses further attributes or relationships that are not JSON", () => {
    expect(() =>
      createEventDocument({ type: "s.room.close", content: {}, attributes: { when: new Date(0) } }),
    ).toThrow(
      expect.objectContaining({
        code: "ERR_INVALID_EVENT_DOCUMENT",
        issues: [expect.objectContaining({ pointer: "/data/attributes/when", code: "not_json" })],
      }),
    );
    expect(() =>
      createEventDocument({ type: "s.room.close", content: {}, relationships: { room: "r1" as never } }),
    ).toThrow(expect.objectContaining({ code: "ERR_INVALID_EVENT_DOCUMENT" }));
  });

  it("validates the content and the key first", () => {
    expect(() => createEventDocument({ type: "s.form", content: { formId: "" } })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_EVENT_CONTENT" }),
    );
    expect(() => createEventDocument({ type: "s.nope" as EventType, content: {} } as never)).toThrow(
      expect.objectContaining({ code: "ERR_UNKNOWN_EVENT_TYPE" }),
    );
    expect(() => createEventDocument({ type: "s.room.close", content: {}, idempotencyKey: "" })).toThrow(
      TypeError,
    );
  });

  it.each(eventTypes)("%s: build then parse returns the same event", (type) => {
    fc.assert(
      fc.property(validContent[type], fc.option(fc.uuid(), { nil: undefined }), (content, idempotencyKey) => {
        const built = createEventDocument({ type, content: content as never, idempotencyKey });
        const wire: unknown = JSON.parse(JSON.stringify(built));
        const parsed = parseEventDocument(wire);
        expect(parsed.data.attributes.type).toBe(type);
        // What went over the wire: JSON has no -0 and drops undefined members.
        expect(parsed.data.attributes.content).toEqual(
          JSON.parse(JSON.stringify(safeParseEventContent(type, content).data)),
        );
        expect(parsed.data.meta?.["idempotency-key"]).toBe(idempotencyKey);
      }),
      { numRuns: 60 },
    );
  });
});

describe("parsing request documents", () => {
  it.each([
    ["no data", {}, "ERR_INVALID_EVENT_DOCUMENT", "/data", "required"],
    [
      "data of another type",
      { data: { type: "rooms", attributes: { type: "s.room.close", content: {} } } },
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/type",
      "invalid_value",
    ],
    [
      "an unknown resource member",
      doc({ type: "s.room.close", content: {} }, { extra: 1 }),
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/extra",
      "unknown_property",
    ],
    [
      "a blank id",
      doc({ type: "s.room.close", content: {} }, { id: " " }),
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/id",
      "invalid_value",
    ],
    [
      "no attributes",
      { data: { type: "events" } },
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/attributes",
      "required",
    ],
    [
      "an unknown event type",
      doc({ type: "s.nope", content: {} }),
      "ERR_UNKNOWN_EVENT_TYPE",
      "/data/attributes/type",
      "unknown_event_type",
    ],
    [
      "invalid content",
      doc({ type: "s.presence", content: { status: "BUSY" } }),
      "ERR_INVALID_EVENT_CONTENT",
      "/data/attributes/content/status",
      "invalid_value",
    ],
    [
      "a blank idempotency key",
      doc({ type: "s.room.close", content: {} }, { meta: { "idempotency-key": " " } }),
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/meta/idempotency-key",
      "invalid_value",
    ],
    ["not an object", [], "ERR_INVALID_EVENT_DOCUMENT", "", "invalid_type"],
  ])("rejects %s", (_name, value, code, pointer, issueCode) => {
    const result = safeParseEventDocument(value);
    expect(result.error?.code).toBe(code);
    expect(result.error?.issues).toContainEqual(expect.objectContaining({ pointer, code: issueCode }));
  });

  it("keeps further attributes and top-level meta", () => {
    const value = {
      meta: { client: "web" },
      data: { type: "events", attributes: { type: "s.room.close", content: {}, channel: "web" } },
    };
    expect(parseEventDocument(value)).toEqual(value);
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.anything({
          key: fc.oneof(fc.string(), fc.constantFrom("data", "attributes", "type", "content", "__proto__")),
        }),
        (value) => {
          expect(typeof safeParseEventDocument(value).success).toBe("boolean");
          expect(typeof safeParseEventDocument({ data: value }).success).toBe("boolean");
          expect(typeof safeParseEventResource({ data: { type: "events", attributes: value } }).success).toBe(
            "boolean",
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("parsing response resources (ruling 12)", () => {
  it.each([
    ["01JD8X5QK3M2", true],
    ["a".repeat(26), true],
    ["😀".repeat(26), true],
    ["a".repeat(27), false],
    ["", false],
    ["  ", false],
    [42, false],
  ])("id %j: %s", (id, ok) => {
    expect(safeParseEventResource(resource({ id })).success).toBe(ok);
  });

  it("requires the id and type events, and checks content by type", () => {
    expect(
      safeParseEventResource({ data: { type: "events", attributes: { type: "s.room.close", content: {} } } })
        .error?.issues[0]?.pointer,
    ).toBe("/data/id");
    expect(safeParseEventResource(resource({ id: "1", type: "rooms" })).success).toBe(false);
    expect(
      safeParseEventResource(resource({ id: "1", attributes: { type: "s.room.pin", content: {} } })).error
        ?.issues[0]?.pointer,
    ).toBe("/data/attributes/content/value");
    expect(
      safeParseEventResource(
        resource({ id: "1", links: { self: "/events/1" }, meta: { "idempotency-key": "k" } }),
      ).success,
    ).toBe(true);
  });
});

describe("toJsonApiErrors", () => {
  it("turns content issues into 422 errors pointing into the request document", () => {
    const result = safeParseEventContent("s.message.action", {
      type: "select",
      body: "b",
      writeable: ["a"],
      multiple: false,
      options: [{ value: 1, label: "One" }],
    });
    expect(toJsonApiErrors(result.error)).toEqual({
      errors: [
        {
          status: "422",
          code: "invalid_type",
          title: "Wrong type",
          detail: "content.options[0].value must be a string, not a number",
          source: { pointer: "/data/attributes/content/options/0/value" },
        },
      ],
    });
  });

  it("keeps document pointers as they are", () => {
    const result = safeParseEventDocument(doc({ type: "s.form", content: {} }, { extra: true }));
    expect(toJsonApiErrors(result.error).errors.map((error) => error.source?.pointer)).toEqual(
      expect.arrayContaining(["/data/attributes/content/formId", "/data/extra"]),
    );
  });

  it("reveals nothing about other errors", () => {
    expect(toJsonApiErrors(new Error("database password is hunter2"))).toEqual({
      errors: [
        {
          status: "500",
          code: "internal_error",
          title: "Internal error",
          detail: "The request could not be processed.",
        },
      ],
    });
  });
});
