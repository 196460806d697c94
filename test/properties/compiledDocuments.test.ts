/**
 * The JSON:API document parsers run on generated code (src/jsonapi/compiledDocuments.ts) and answer
 * exactly as the Zod document schemas interpreted do (src/jsonapi/interpretEventDocument.ts): the
 * same verdict; on success the same `data`; on failure the same error code, event type, message,
 * omitted count and issues, in the same order. Request and response documents, default and custom
 * attribute names, valid documents, near misses by class, random mutations, small limits, and a
 * table of inputs chosen at the edges of every rule. Where a request document is valid, Ajv on the
 * shipped JSON Schema of its type accepts its content too.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type EventType, eventTypes, type ValidationLimits } from "../../src/events/index.js";
import { interpretEventDocument } from "../../src/jsonapi/interpretEventDocument.js";
import {
  type DocumentParseOptions,
  parseEventDocument,
  parseEventResource,
  safeParseEventDocument,
  safeParseEventResource,
} from "../../src/jsonapi/parseEventDocument.js";
import { compileShippedSchemas } from "../support/ajv.js";
import { asResult, expectSame } from "../support/compiled/contract.js";
import { changingMember, cycle, hugeSparseArray, throwingProxy } from "../support/compiled/hostileValues.js";
import { limitsNear } from "../support/compiled/limitsNear.js";
import { mutated } from "../support/mutations.js";
import { isJsonRepresentable, nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

const ajv = compileShippedSchemas();

type Which = "document" | "resource";

/** Compiled against interpreted, through the safe and the throwing parser of `which`. */
function check(which: Which, value: unknown, options?: DocumentParseOptions): void {
  const reference = interpretEventDocument(value, which, options);
  const safe = which === "document" ? safeParseEventDocument : safeParseEventResource;
  const parse = which === "document" ? parseEventDocument : parseEventResource;
  const compiled = safe(value, options);
  expectSame(compiled, reference, `safeParseEvent${which === "document" ? "Document" : "Resource"}`);
  expectSame(
    asResult(() => parse(value, options)),
    reference,
    `parseEvent${which === "document" ? "Document" : "Resource"}`,
  );
  if (compiled.success && options === undefined && which === "document" && isJsonRepresentable(value)) {
    const { attributes } = (value as { data: { attributes: { eventType: EventType; content: unknown } } })
      .data;
    expect(ajv.content(attributes.eventType)(attributes.content), "Ajv on the content").toBe(true);
  }
}

const CUSTOM = { eventType: "kind", content: "payload" } as const;

const valid = {
  data: {
    type: "events",
    attributes: { eventType: "s.room.pin", content: { value: true } },
  },
};
const resource = { data: { id: "01JD8X5QK3M2", ...valid.data } };
const withData = (data: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
  data: { ...valid.data, ...data },
  ...top,
});
const withAttributes = (attributes: Record<string, unknown>) =>
  withData({ attributes: { ...valid.data.attributes, ...attributes } });

/** Inputs at the edge of every rule of the envelope: each runs through both parsers. */
const pinned: readonly [string, unknown, DocumentParseOptions?][] = [
  ["a valid document", valid],
  ["a valid resource", resource],
  ["not an object", "events"],
  ["an array", [valid]],
  ["no data", {}],
  ["data not an object", { data: [] }],
  ["errors beside data", { ...valid, errors: [] }],
  ["errors beside data and another unknown member", { ...valid, errors: [{}], extra: 1 }],
  ["a wrong resource type", withData({ type: "event" })],
  ["an empty id", withData({ id: "" })],
  ["a blank id", withData({ id: "   " })],
  ["an id of 27 characters", withData({ id: "x".repeat(27) })],
  ["an id of 26 astral characters", withData({ id: "😀".repeat(26) })],
  ["an id of 27 blank characters", withData({ id: " ".repeat(27) })],
  ["an id that is a number", withData({ id: 42 })],
  ["an id that is an empty array", withData({ id: [] })],
  ["an id that is null", withData({ id: null })],
  ["an unknown member of data", withData({ lid: "x" })],
  ["attributes not an object", withData({ attributes: "s.room.pin" })],
  ["attributes without a type", withData({ attributes: { content: { value: true } } })],
  ["attributes without content", withData({ attributes: { eventType: "s.room.pin" } })],
  ["an unknown event type", withAttributes({ eventType: "s.room.unpin" })],
  ["a type that is not a string", withAttributes({ eventType: 7 })],
  ["invalid content only", withAttributes({ content: { value: "yes" } })],
  ["invalid content and an unknown member", { ...withAttributes({ content: {} }), extra: true }],
  ["a further attribute", withAttributes({ note: "kept", "x-y": [1, { a: null }] })],
  ["a further attribute that is not JSON", withAttributes({ note: undefined, other: () => 1 })],
  ["further attributes with bad names", withAttributes({ "bad name": 1, _x: 2, type: 3, links: 4 })],
  ["a bad name and a value that is not JSON", withAttributes({ "bad name": Number.NaN })],
  ["bad content and a bad attribute name", withAttributes({ content: {}, "bad name": 1 })],
  ["an own __proto__ attribute", withAttributes(JSON.parse('{"__proto__": {"x": 1}}'))],
  ["a valid idempotency key", withData({ meta: { "idempotency-key": "order-42", trace: "t" } })],
  ["an idempotency key with a space", withData({ meta: { "idempotency-key": "order 42" } })],
  ["an idempotency key with a comma", withData({ meta: { "idempotency-key": "k1,k2" } })],
  ["an empty idempotency key", withData({ meta: { "idempotency-key": "" } })],
  ["an idempotency key of 256 characters", withData({ meta: { "idempotency-key": "k".repeat(256) } })],
  ["an idempotency key that is a number", withData({ meta: { "idempotency-key": 42 } })],
  ["meta that is not an object", withData({ meta: "m" })],
  ["meta with a member that is not JSON", withData({ meta: { at: new Date(0) } })],
  ["a bad key and meta that is not JSON", withData({ meta: { "idempotency-key": " ", x: undefined } })],
  ["relationships", withData({ relationships: { room: { data: { type: "rooms", id: "r1" } } } })],
  ["a to-many relationship", withData({ relationships: { tags: { data: [{ type: "t", id: "1" }] } } })],
  ["a relationship with links", withData({ relationships: { room: { links: { self: "/r" } } } })],
  ["an empty relationship", withData({ relationships: { room: {} } })],
  ["a relationship that is a string", withData({ relationships: { room: "r1" } })],
  ["a relationship with a bad name", withData({ relationships: { "bad name": { data: null } } })],
  [
    "relationship identifiers with problems",
    withData({
      relationships: {
        room: { data: [{ type: 1 }, "x", { type: "t", id: "1", lid: "l", meta: 2 }], extra: 1, links: 3 },
      },
    }),
  ],
  ["relationships that are not JSON", withData({ relationships: { room: { data: null, meta: { n: 1n } } } })],
  ["relationships that are an array", withData({ relationships: [] })],
  ["links", withData({ links: { self: "/events/1", related: { href: "/r", meta: {} } } })],
  ["links with problems", withData({ links: { self: 1, related: { meta: 1, rel: "x" } } })],
  ["links that are not an object", withData({ links: "self" })],
  ["top-level meta, jsonapi and links", { ...valid, meta: { a: 1 }, jsonapi: { version: "1.1" }, links: {} }],
  ["a jsonapi object with problems", { ...valid, jsonapi: { version: 1.1, ext: [], meta: "m" } }],
  ["top-level meta that is not an object", { ...valid, meta: [] }],
  ["top-level meta that is not JSON", { ...valid, meta: { n: Number.POSITIVE_INFINITY } }],
  ["included in a request document", { ...valid, included: [] }],
  [
    "custom names",
    { data: { type: "events", attributes: { kind: "s.room.close", payload: {} } } },
    { attributeNames: CUSTOM },
  ],
  [
    "custom names, default names given",
    { data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } },
    { attributeNames: CUSTOM },
  ],
  [
    "custom names, bad content",
    { data: { type: "events", attributes: { kind: "s.room.pin", payload: { value: 1 }, x: 1 } } },
    { attributeNames: CUSTOM },
  ],
  [
    "custom names with digits",
    { data: { type: "events", attributes: { "2": "s.room.close", "1": {}, "0": true } } },
    { attributeNames: { eventType: "2", content: "1" } },
  ],
  ["attribute names JSON:API forbids", valid, { attributeNames: { eventType: "type", content: "content" } }],
  ["the same attribute name twice", valid, { attributeNames: { eventType: "a", content: "a" } }],
  [
    "a getter that parses another document, with other attribute names, in the middle of a parse",
    {
      data: {
        type: "events",
        get id() {
          const inner = { data: { type: "events", attributes: { kind: "s.room.close", payload: {} } } };
          return safeParseEventDocument(inner, { attributeNames: CUSTOM }).success
            ? "inner-ok"
            : "inner-failed";
        },
        attributes: valid.data.attributes,
      },
    },
  ],
  ["a proxy whose get trap throws as data", { data: throwingProxy("get", {}) }],
  [
    "a getter that throws in links",
    withData({
      links: {
        get self(): string {
          throw new Error("no");
        },
      },
    }),
  ],
  ["a member that changes between reads", withData({ meta: changingMember("x", 1, 2) })],
  ["a cycle in meta", { ...valid, meta: cycle() }],
  ["a huge sparse array as included", { ...resource, included: hugeSparseArray() }],
  ["a huge sparse array of identifiers", withData({ relationships: { r: { data: hugeSparseArray() } } })],
  ["a deep document under a small limit", withData({ meta: { a: { b: { c: {} } } } }), { maxDepth: 3 }],
  [
    "many issues under a small cap",
    withAttributes({ a1: undefined, a2: undefined, a3: undefined }),
    { maxIssues: 2 },
  ],
  ["many link issues under a small cap", withData({ links: { a: 1, b: 2, c: 3, d: 4 } }), { maxIssues: 3 }],
];

describe("document parsers answer as the interpreted schemas do on pinned inputs", () => {
  it.each(pinned)("%s", (_name, value, options) => {
    check("document", value, options);
    check("resource", value, options);
  });

  it("keeps its own attribute names when a getter parses another document with other names", () => {
    const row = pinned.find(([name]) => name.startsWith("a getter that parses another document"))!;
    const result = safeParseEventDocument(row[1]);
    expect(result.success && result.data.data.id).toBe("inner-ok");
  });
});

// Generated documents: valid ones first, then near misses and mutations of them.

const ids = fc.oneof(
  fc.constantFrom("01JD8X5QK3M2", "a", "x".repeat(26), "😀".repeat(26)),
  fc.string({ minLength: 1, maxLength: 26 }).filter((id) => /\S/.test(id)),
);
const fieldNames = fc.constantFrom("note", "priority", "x-y", "a_b", "n1");
const json = fc.jsonValue({ maxDepth: 2 });
const smallObject = fc.dictionary(fc.constantFrom("a", "b", "c"), json, { maxKeys: 2 });
const links = fc.dictionary(
  fc.constantFrom("self", "related", "next"),
  fc.oneof(
    fc.constantFrom("/events/1", "https://example.com/r"),
    fc.record({ href: fc.constant("/r"), meta: smallObject }, { requiredKeys: ["href"] }),
  ),
  { maxKeys: 2 },
);
const identifier = fc.record(
  { type: fc.constantFrom("rooms", "users"), id: fc.string({ maxLength: 4 }), meta: smallObject },
  { requiredKeys: ["type", "id"] },
);
const relationship = fc.oneof(
  fc.record(
    {
      data: fc.oneof(fc.constant(null), identifier, fc.array(identifier, { maxLength: 3 })),
      links,
      meta: smallObject,
    },
    { requiredKeys: ["data"] },
  ),
  fc.record({ links }),
  fc.record({ meta: smallObject }),
);
const resourceMeta = fc.record(
  { "idempotency-key": fc.constantFrom("order-42", "3b241101-e2bb-4255-8caf-4136c566a962"), trace: json },
  { requiredKeys: [] },
);

const nameChoices: readonly (DocumentParseOptions | undefined)[] = [
  undefined,
  { attributeNames: CUSTOM },
  { attributeNames: { eventType: "event-type", content: "body" } },
];

/** A valid document of `which` under `options`' attribute names. */
function documents(which: Which, options: DocumentParseOptions | undefined): fc.Arbitrary<unknown> {
  const names = options?.attributeNames ?? { eventType: "eventType", content: "content" };
  const attributes = fc
    .constantFrom(...eventTypes)
    .chain((type) =>
      fc.tuple(fc.constant(type), validContent[type], fc.dictionary(fieldNames, json, { maxKeys: 2 })),
    )
    .map(([type, content, extras]) => ({ ...extras, [names.eventType]: type, [names.content]: content }));
  const data = fc.record(
    {
      type: fc.constant("events"),
      id: ids,
      attributes,
      relationships: fc.dictionary(fc.constantFrom("room", "author", "tags"), relationship, { maxKeys: 2 }),
      meta: resourceMeta,
      links,
    },
    { requiredKeys: which === "resource" ? ["type", "id", "attributes"] : ["type", "attributes"] },
  );
  return fc.record(
    {
      data,
      meta: smallObject,
      jsonapi: fc.record({ version: fc.constant("1.1"), meta: smallObject }, { requiredKeys: [] }),
      links,
      ...(which === "resource" ? { included: fc.array(smallObject, { maxLength: 2 }) } : {}),
    },
    { requiredKeys: ["data"] },
  );
}

const RUNS = { valid: 150, nearMiss: 300, mutated: 150 };

describe.each(["document", "resource"] as const)(
  "the %s parsers answer as the interpreted schemas do",
  (which) => {
    it.each(
      nameChoices.map((options) => [JSON.stringify(options?.attributeNames ?? "default names"), options]),
    )(
      `on ${RUNS.valid} valid, ${RUNS.nearMiss} near-miss and ${RUNS.mutated} mutated documents, %s`,
      (_names, options) => {
        const valid = documents(which, options);
        fc.assert(
          fc.property(valid, (value) => {
            check(which, value, options);
            const safe = which === "document" ? safeParseEventDocument : safeParseEventResource;
            expect(safe(value, options).success).toBe(true);
          }),
          { numRuns: RUNS.valid },
        );
        fc.assert(
          fc.property(valid.chain(nearMiss), (value) => check(which, value, options)),
          { numRuns: RUNS.nearMiss },
        );
        fc.assert(
          fc.property(valid.chain(mutated), (value) => check(which, value, options)),
          { numRuns: RUNS.mutated },
        );
      },
    );

    it("on 300 documents under limits near their own sizes", () => {
      const sized = documents(which, undefined)
        .chain((value) => fc.oneof(fc.constant(value), nearMiss(value)))
        .chain((value) => fc.tuple(fc.constant(value), limitsNear(value)));
      fc.assert(
        fc.property(sized, ([value, limits]: [unknown, ValidationLimits]) => check(which, value, limits)),
        { numRuns: 300 },
      );
    });
  },
);
