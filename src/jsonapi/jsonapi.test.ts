import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validContent } from "../../test/support/validContent.js";
import { type EventType, eventTypes, safeParseEvent, safeParseEventContent } from "../events/index.js";
import {
  AttributeNameError,
  acceptsJsonApi,
  createEventDocument,
  DEFAULT_EVENT_ATTRIBUTE_NAMES,
  isJsonApiFieldName,
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
  data: { type: "events", attributes: { eventType: "s.room.close", content: {} }, ...data },
});

describe("media type", () => {
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
  it("builds the create request document, attributes eventType and content", () => {
    const relationships = { room: { data: { type: "rooms", id: "room-42" } } };
    expect(
      createEventDocument({
        type: "s.message.text",
        content: { body: "Hi" },
        attributes: { channel: "web", eventType: "ignored" },
        relationships,
        idempotencyKey: "order-42",
      }),
    ).toEqual({
      data: {
        type: "events",
        attributes: { channel: "web", eventType: "s.message.text", content: { body: "Hi" } },
        relationships,
        meta: { "idempotency-key": "order-42" },
      },
    });
    expect(createEventDocument({ type: "s.room.close", content: {} })).toEqual(
      doc({ eventType: "s.room.close", content: {} }),
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
        expect(parsed.data.attributes.eventType).toBe(type);
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
      { data: { type: "rooms", attributes: { eventType: "s.room.close", content: {} } } },
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/type",
      "invalid_value",
    ],
    [
      "an unknown resource member",
      doc({ eventType: "s.room.close", content: {} }, { extra: 1 }),
      "ERR_INVALID_EVENT_DOCUMENT",
      "/data/extra",
      "unknown_property",
    ],
    [
      "a blank id",
      doc({ eventType: "s.room.close", content: {} }, { id: " " }),
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
      doc({ eventType: "s.nope", content: {} }),
      "ERR_UNKNOWN_EVENT_TYPE",
      "/data/attributes/eventType",
      "unknown_event_type",
    ],
    [
      "invalid content",
      doc({ eventType: "s.presence", content: { status: "BUSY" } }),
      "ERR_INVALID_EVENT_CONTENT",
      "/data/attributes/content/status",
      "invalid_value",
    ],
    [
      "a blank idempotency key",
      doc({ eventType: "s.room.close", content: {} }, { meta: { "idempotency-key": " " } }),
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
      data: { type: "events", attributes: { eventType: "s.room.close", content: {}, channel: "web" } },
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

describe("parsing response resources", () => {
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
      safeParseEventResource({
        data: { type: "events", attributes: { eventType: "s.room.close", content: {} } },
      }).error?.issues[0]?.pointer,
    ).toBe("/data/id");
    expect(safeParseEventResource(resource({ id: "1", type: "rooms" })).success).toBe(false);
    expect(
      safeParseEventResource(resource({ id: "1", attributes: { eventType: "s.room.pin", content: {} } }))
        .error?.issues[0]?.pointer,
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
    const result = safeParseEventDocument(doc({ eventType: "s.form", content: {} }, { extra: true }));
    expect(toJsonApiErrors(result.error).errors.map((error) => error.source?.pointer)).toEqual(
      expect.arrayContaining(["/data/attributes/content/formId", "/data/extra"]),
    );
  });

  it("points a document that is no object at the whole document, and an event that is none at the root", () => {
    for (const body of [[], 5, null, "text"]) {
      const [error] = toJsonApiErrors(safeParseEventDocument(body).error).errors;
      expect(error!.source?.pointer).toBe("");
      expect(error!.status).toBe("422");
    }
    const [error] = toJsonApiErrors(safeParseEvent([]).error).errors;
    expect(error!.source?.pointer).toBe("");
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

describe("documents that JSON:API and JSON can carry", () => {
  const base = { type: "events", attributes: { eventType: "s.room.close", content: {} } };
  it.each([
    ["data beside errors", { data: base, errors: [] }, "/errors"],
    ["a BigInt member", { data: base, count: 10n }, "/count"],
    ["a function member", { data: base, callback: () => 1 }, "/callback"],
    ["a Date in data.meta", { data: { ...base, meta: { at: new Date(0) } } }, "/data/meta/at"],
    [
      "a relationship named __proto__",
      JSON.parse(
        '{"data":{"type":"events","attributes":{"eventType":"s.room.close","content":{}},"relationships":{"__proto__":{"data":null}}}}',
      ),
      "/data/relationships/__proto__",
    ],
    [
      "a relationship that is not an object",
      { data: { ...base, relationships: { room: "r1" } } },
      "/data/relationships/room",
    ],
    [
      "an attribute named like a reserved member",
      { data: { ...base, attributes: { ...base.attributes, links: {} } } },
      "/data/attributes/links",
    ],
    [
      "a key sent twice and joined",
      { data: { ...base, meta: { "idempotency-key": "k1, k2" } } },
      "/data/meta/idempotency-key",
    ],
  ])("%s is refused where it is", (_name, document, pointer) => {
    const result = safeParseEventDocument(document);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.pointer)).toContain(pointer);
    expect(
      safeParseEventResource({ ...document, data: { ...(document as { data: object }).data, id: "1" } })
        .success,
    ).toBe(false);
  });

  it("createEventDocument refuses what is not an event with a coded error", () => {
    for (const input of [null, undefined, 42, "s.room.close", []]) {
      expect(() => createEventDocument(input as never)).toThrow(
        expect.objectContaining({ code: "ERR_INVALID_EVENT" }),
      );
    }
    expect(() => createEventDocument({ type: "s.room.close", content: {}, idempotencyKey: "k 1" })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_IDEMPOTENCY_KEY" }),
    );
    expect(() =>
      createEventDocument({ type: "s.room.close", content: {}, attributes: { _private: 1 } }),
    ).toThrow(expect.objectContaining({ code: "ERR_INVALID_EVENT_DOCUMENT" }));
  });
});

describe("attribute names", () => {
  const names = { eventType: "kind", content: "payload" };

  it("the defaults are eventType and content, names JSON:API allows", () => {
    expect(DEFAULT_EVENT_ATTRIBUTE_NAMES).toEqual({ eventType: "eventType", content: "content" });
    const document = createEventDocument({ type: "s.room.pin", content: { value: true } });
    expect(document.data.attributes).toEqual({ eventType: "s.room.pin", content: { value: true } });
    expect(Object.keys(document.data.attributes)).not.toContain("type");
  });

  it("one options value renames them everywhere: building, parsing, errors", () => {
    const document = createEventDocument(
      { type: "s.presence", content: { status: "AWAY" } },
      { attributeNames: names },
    );
    expect(document.data.attributes).toEqual({ kind: "s.presence", payload: { status: "AWAY" } });
    const parsed = parseEventDocument(document, { attributeNames: names });
    expect(parsed.data.attributes.kind).toBe("s.presence");
    // With the default names, the same document lacks its type and content.
    expect(safeParseEventDocument(document).success).toBe(false);
    const bad = safeParseEventDocument(
      { data: { type: "events", attributes: { kind: "s.presence", payload: { status: "BUSY" } } } },
      { attributeNames: names },
    );
    expect(bad.error?.code).toBe("ERR_INVALID_EVENT_CONTENT");
    expect(bad.error?.issues[0]?.pointer).toBe("/data/attributes/payload/status");
    const unknown = safeParseEventDocument(
      { data: { type: "events", attributes: { kind: "s.nope", payload: {} } } },
      { attributeNames: names },
    );
    expect(unknown.error?.issues[0]?.pointer).toBe("/data/attributes/kind");
    const fromContent = safeParseEvent({ type: "s.nope", content: {} });
    expect(toJsonApiErrors(fromContent.error, { attributeNames: names }).errors[0]?.source?.pointer).toBe(
      "/data/attributes/kind",
    );
    expect(toJsonApiErrors(fromContent.error).errors[0]?.source?.pointer).toBe("/data/attributes/eventType");
    const resource = safeParseEventResource(
      { data: { id: "1", type: "events", attributes: { kind: "s.room.close", payload: {} } } },
      { attributeNames: names },
    );
    expect(resource.success).toBe(true);
  });

  it.each([
    ["type", "content"],
    ["id", "content"],
    ["eventType", "links"],
    ["eventType", "relationships"],
    ["_type", "content"],
    ["type-", "content"],
    ["", "content"],
    ["event type", "event type"],
    ["Event Type", "content"],
    ["événement", "content"],
    ["a\u2028b", "content"],
    ["a\u202eb", "content"],
    ["a/b", "content"],
    ["eventType", "eventType"],
  ])("refuses { eventType: %j, content: %j } before anything is built or parsed", (eventType, content) => {
    const attributeNames = { eventType, content };
    const input = { type: "s.room.close" as const, content: {} };
    expect(() => createEventDocument(input, { attributeNames })).toThrow(AttributeNameError);
    // The safe parsers never throw: bad options are a failure of their own code.
    expect(safeParseEventDocument({}, { attributeNames }).error?.code).toBe("ERR_INVALID_OPTIONS");
    expect(safeParseEventResource({}, { attributeNames }).error?.code).toBe("ERR_INVALID_OPTIONS");
    expect(() => parseEventDocument({}, { attributeNames })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_OPTIONS" }),
    );
  });

  it.each(["kind", "event-type", "event_type", "EventType", "x1"])("accepts %j", (name) => {
    expect(isJsonApiFieldName(name)).toBe(true);
    const document = createEventDocument(
      { type: "s.room.close", content: {} },
      { attributeNames: { eventType: name, content: "content" } },
    );
    expect(
      safeParseEventDocument(document, { attributeNames: { eventType: name, content: "content" } }).success,
    ).toBe(true);
  });
});
