/**
 * The JSON:API document parsers (`safeParseEventDocument`, `parseEventDocument`,
 * `safeParseEventResource`, `parseEventResource`) under attack, as compiledHostile.test.ts attacks
 * the content validators. Every `safe…` parser returns for any document and any options; its
 * `parse…` twin throws only an `EventValidationError`; output is bounded and safe to log (no
 * message echoes more than 40 characters of the input, nor a control or bidirectional character
 * unescaped; pointers and path segments of at most 256 characters); `data` is a deep copy that a
 * getter or a later change of the input cannot reach; and where the Zod-interpreted reference
 * answers, the compiled parsers answer the same. Hostile values are placed at every level of a
 * document: the document, data, attributes, content, further attributes, relationships,
 * identifiers, links, meta, jsonapi, included, unknown members, and the options.
 *
 * The cases at the end are what a hostile review found (a second read of a member past the node
 * limit, members listed after the budget was spent, attribute names too long for whole pointers or
 * inherited by every object, unreadable options blamed on the document): fixed, and kept here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeParseEvent } from "../../src/events/index.js";
import {
  type DocumentParseOptions,
  safeParseEventDocument,
  safeParseEventResource,
} from "../../src/jsonapi/parseEventDocument.js";
import { createEventsHandler } from "../../src/server/createEventsHandler.js";
import {
  attack,
  comparable,
  documentEntries,
  expectSameAsReference,
  expectSaneResult,
  objectsOf,
  polluted,
  unsafe,
} from "../support/compiled/documents/documentAttack.js";
import {
  bare,
  changingMember,
  cycle,
  forgedClassInstance,
  forging,
  hugeSparseArray,
  Message,
  megabyte,
  megabyteKey,
  nested,
  readTraps,
  revokedProxy,
  sharedGraph,
  throwingProxy,
} from "../support/compiled/hostileValues.js";

type Doc = Record<string, unknown>;

/**
 * A valid response document, valid as a request document too: every member JSON:API allows but
 * `included`, which only a response may carry (see `validResource`).
 */
function validDocument(): Doc {
  return {
    data: {
      id: "01JD8X5QK3M2",
      type: "events",
      attributes: { eventType: "s.message.text", content: { body: "hi" }, note: { a: [1] } },
      relationships: { room: { data: [{ type: "rooms", id: "r1" }], links: { self: "/r" } } },
      meta: { "idempotency-key": "order-42", trace: {} },
      links: { self: { href: "/events/1", meta: {} } },
    },
    meta: { m: {} },
    jsonapi: { version: "1.1" },
    links: { self: "/events" },
  };
}

/** A valid response document with `included`. */
function validResource(): Doc {
  return { ...validDocument(), included: [{ type: "rooms", id: "r1" }] };
}

/** A small valid document of each kind, for the cases that need the reference to read attributes. */
const small = (which: "document" | "resource"): Doc => ({
  data: {
    ...(which === "resource" ? { id: "01" } : {}),
    type: "events",
    attributes: { eventType: "s.room.pin", content: { value: true } },
  },
});

const dataOf = (document: Doc) => document.data as Doc;
const attributesOf = (document: Doc) => dataOf(document).attributes as Doc;

/** Where a hostile value goes in a valid document: each returns a fresh document holding it. */
const places: readonly [string, (value: unknown) => unknown][] = [
  ["the document", (value) => value],
  ["data", (value) => ({ ...validDocument(), data: value })],
  ["attributes", (value) => at((d) => (dataOf(d).attributes = value))],
  ["content", (value) => at((d) => (attributesOf(d).content = value))],
  ["a further attribute", (value) => at((d) => (attributesOf(d).note = value))],
  ["data.id", (value) => at((d) => (dataOf(d).id = value))],
  ["relationships", (value) => at((d) => (dataOf(d).relationships = value))],
  ["a relationship", (value) => at((d) => (dataOf(d).relationships = { room: value }))],
  ["a relationship's data", (value) => at((d) => (dataOf(d).relationships = { room: { data: value } }))],
  ["an identifier", (value) => at((d) => (dataOf(d).relationships = { room: { data: [value] } }))],
  ["data.links", (value) => at((d) => (dataOf(d).links = value))],
  ["a link", (value) => at((d) => (dataOf(d).links = { self: value }))],
  ["data.meta", (value) => at((d) => (dataOf(d).meta = value))],
  ["the top-level meta", (value) => at((d) => (d.meta = value))],
  ["jsonapi", (value) => at((d) => (d.jsonapi = value))],
  ["the top-level links", (value) => at((d) => (d.links = value))],
  ["included", (value) => at((d) => (d.included = value))],
  ["an included resource", (value) => at((d) => (d.included = [value]))],
  ["an unknown member of data", (value) => at((d) => (dataOf(d).lid = value))],
  ["an unknown top-level member", (value) => at((d) => (d.errors = value))],
];

function at(change: (document: Doc) => unknown): Doc {
  const document = validDocument();
  change(document);
  return document;
}

/** Light hostile values, fresh on each call: each goes to every place. */
const light: readonly [string, () => unknown][] = [
  ...readTraps.map((trap): [string, () => unknown] => [
    `a proxy whose ${trap} trap throws`,
    () => throwingProxy(trap, { type: "rooms", id: "r1", data: null, href: "/x" }),
  ]),
  ...readTraps.map((trap): [string, () => unknown] => [
    `an array proxy whose ${trap} trap throws`,
    () => throwingProxy(trap, [{ type: "rooms", id: "r1" }]),
  ]),
  ["a revoked proxy", revokedProxy],
  [
    "a getter that throws an Error with forging text",
    () => ({
      get data() {
        throw new Error(megabyte);
      },
    }),
  ],
  [
    "a getter that throws an Error whose message getter throws",
    () => ({
      get href() {
        throw Object.defineProperty(new Error(), "message", {
          get() {
            throw new Error("again");
          },
        });
      },
    }),
  ],
  ["a cycle", cycle],
  ["a megabyte string", () => megabyte],
  ["an object with a megabyte key", () => ({ [megabyteKey]: 1 })],
  ["an object with a megabyte key missing its value", () => ({ [megabyteKey]: undefined })],
  ["an object with forging keys", () => ({ [forging]: 1, [`${forging}x`]: { [forging]: Number.NaN } })],
  ["__proto__ as an own key", () => JSON.parse('{"__proto__":{"x":1},"type":"rooms","id":"r1"}')],
  ["constructor and prototype keys", () => ({ constructor: 1, prototype: { a: 1 } })],
  ["symbol keys", () => ({ [Symbol("s")]: 1, type: "rooms", id: "r1" })],
  ["a symbol", () => Symbol(megabyte)],
  ["a bigint", () => 1n],
  ["NaN", () => Number.NaN],
  ["a function", () => () => 1],
  ["a null-prototype object", () => bare({ type: "rooms", id: "r1", href: "/x", data: null })],
  ["a class instance", () => new Message()],
  ["a class with a forged name", forgedClassInstance],
  ["a frozen object", () => Object.freeze({ type: "rooms", id: "r1", data: Object.freeze([]) })],
  ["a typed array", () => new Uint8Array(4)],
  ["a String object", () => new String("events")],
  ["a Map", () => new Map([["type", "rooms"]])],
  ["a Date", () => new Date(0)],
  ["undefined", () => undefined],
  ["null", () => null],
];

/** Heavy values, built once (nothing the parsers do may change them): at the places they hurt most. */
const sparse = hugeSparseArray();
const deep = nested(100_000);
const graph = sharedGraph(60);
const heavy: readonly [string, unknown][] = [
  ["a sparse array of length 2^32 - 1 as included", at((d) => (d.included = sparse))],
  [
    "a sparse array of length 2^32 - 1 as a relationship's data",
    at((d) => (dataOf(d).relationships = { r: { data: sparse } })),
  ],
  ["a sparse array of length 2^32 - 1 as a link", at((d) => (dataOf(d).links = { self: sparse }))],
  ["a sparse array of length 2^32 - 1 as the links", at((d) => (d.links = sparse))],
  ["a sparse array of length 2^32 - 1 as data.id", at((d) => (dataOf(d).id = sparse))],
  [
    "a sparse array of length 2^32 - 1 as attributes and content",
    { data: { type: "events", attributes: sparse, meta: sparse } },
  ],
  ["a sparse array of length 2^32 - 1 as an unknown member", at((d) => (d.extra = sparse))],
  ["100,000 nested objects as the top-level meta", at((d) => (d.meta = deep))],
  [
    "100,000 nested objects in a relationship's meta",
    at((d) => (dataOf(d).relationships = { r: { meta: deep } })),
  ],
  ["100,000 nested objects as an unknown member", at((d) => (dataOf(d).lid = deep))],
  ["100,000 nested objects as an included resource", at((d) => (d.included = [deep]))],
  ["a shared graph of 2^60 paths as a further attribute", at((d) => (attributesOf(d).note = graph))],
];

/** Hostile options: proxies, revoked proxies, throwing getters, odd names and limits. */
const hostileOptions: readonly [string, () => unknown][] = [
  ["a proxy whose get trap throws", () => throwingProxy("get", {})],
  ["a revoked proxy", revokedProxy],
  ["a proxy that answers 1 to everything", () => new Proxy({}, { get: () => 1 })],
  [
    "a getter of attributeNames that throws",
    () => ({
      get attributeNames() {
        throw new Error(megabyte);
      },
    }),
  ],
  ["attributeNames behind a throwing get trap", () => ({ attributeNames: throwingProxy("get", {}) })],
  ["attributeNames as a revoked proxy", () => ({ attributeNames: revokedProxy() })],
  [
    "a getter of attributeNames.eventType that throws",
    () => ({
      attributeNames: {
        get eventType() {
          throw new Error("names");
        },
        content: "payload",
      },
    }),
  ],
  [
    "attribute names with forging characters",
    () => ({ attributeNames: { eventType: forging, content: "c" } }),
  ],
  ["a megabyte attribute name", () => ({ attributeNames: { eventType: megabyteKey, content: "c" } })],
  [
    "attribute names __proto__ and constructor",
    () => ({ attributeNames: { eventType: "__proto__", content: "constructor" } }),
  ],
  [
    "attribute names toString and valueOf",
    () => ({ attributeNames: { eventType: "toString", content: "valueOf" } }),
  ],
  ["attribute names that are numbers", () => ({ attributeNames: { eventType: 1, content: 2 } })],
  ["attributeNames as a string", () => ({ attributeNames: "kind" })],
  ["NaN limits", () => ({ maxDepth: Number.NaN, maxNodes: Number.NaN, maxIssues: Number.NaN })],
  ["zero limits", () => ({ maxDepth: 0, maxNodes: 0, maxIssues: 0 })],
  ["tiny limits", () => ({ maxDepth: 1, maxNodes: 1, maxIssues: 1 })],
  [
    "a getter of maxIssues that throws",
    () => ({
      get maxIssues() {
        throw new Error("limit");
      },
    }),
  ],
  ["a string", () => "options"],
  ["an array", () => [1]],
  ["a function", () => () => 1],
];

describe("every safe document parser returns for every hostile value, wherever it is", () => {
  it.each(light)("%s", (_, make) => {
    for (const [, place] of places) for (const entry of documentEntries) attack(entry, () => place(make()));
  });

  // (Each costs up to a million steps: the safe parsers only.)
  it.each(heavy)("%s", (_, input) => {
    for (const entry of documentEntries) attack(entry, () => input, undefined, false);
  });

  it.each(hostileOptions)("options: %s", (_, makeOptions) => {
    const inputs = [
      validDocument(),
      at((d) => (attributesOf(d).content = { body: 1 })),
      {
        data: { type: "events", attributes: { kind: "s.room.close", payload: {}, toString: "s.room.close" } },
      },
    ];
    for (const entry of documentEntries)
      for (const input of inputs) attack(entry, () => input, makeOptions());
  });
});

describe("generated hostile documents", () => {
  // Any value fast-check makes (boxed values, maps, sets, typed and sparse arrays, null-prototype
  // objects, symbols, bigints, special keys) or a light hostile value, at any place.
  const anything = fc.anything({
    maxDepth: 3,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
    withNullPrototype: true,
    withObjectString: true,
    withBigInt: true,
    withDate: true,
  });
  const lightIndex = fc.nat({ max: light.length - 1 });
  const value = fc.oneof(
    anything.map((made) => () => made),
    lightIndex.map((index) => light[index]![1]),
  );
  const placeIndex = fc.nat({ max: places.length - 1 });
  const document = fc.tuple(placeIndex, value).map(([place, make]) => ({
    make: () => places[place]![1](make()),
    hasTrap: light.some(([name, m]) => name.includes(" has trap") && m === make),
  }));

  it("never throw, stay bounded, and answer as the reference (150 documents)", () => {
    fc.assert(
      fc.property(document, ({ make, hasTrap }) => {
        for (const entry of documentEntries) {
          attack(entry, make);
          if (!hasTrap) expectSameAsReference(entry, make);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("the compiled parsers answer as the interpreted reference on hostile input", () => {
  // Excluded, and pinned below: a proxy whose `has` trap throws (the reference asks `key in value`
  // of every member, the compiled code only of missing ones).
  const compared = light.filter(([name]) => !name.includes(" has trap"));

  it.each(compared)("%s", (_, make) => {
    for (const [, place] of places)
      for (const entry of documentEntries) expectSameAsReference(entry, () => place(make()));
  });

  // (The response parser, the wider of the two: each input costs up to a million steps.)
  it.each(heavy)("%s", (_, input) => {
    expectSameAsReference(documentEntries[1]!, () => input);
  });

  it.each(hostileOptions)("options: %s", (_, makeOptions) => {
    const input = at((d) => (attributesOf(d).content = { body: 1, extra: [] }));
    for (const entry of documentEntries) expectSameAsReference(entry, () => input, makeOptions());
  });

  it.each([
    ["many unknown members", { maxIssues: 3 }, (d: Doc) => Object.assign(d, objectOfMany("u", 1))],
    [
      "many bad attribute names",
      { maxIssues: 3 },
      (d: Doc) => Object.assign(attributesOf(d), objectOfMany("_a", 1)),
    ],
    [
      "many bad relationships and links",
      { maxIssues: 5 },
      (d: Doc) => {
        dataOf(d).relationships = objectOfMany("r", { data: [1, { type: 2 }], extra: 1 });
        dataOf(d).links = objectOfMany("l", { meta: 1, rel: 2 });
        d.jsonapi = { version: 1, ext: [] };
      },
    ],
    ["many bad included resources", { maxIssues: 2 }, (d: Doc) => (d.included = new Array(300).fill(1))],
    [
      "a relationship of 300 identifiers under a small node limit",
      { maxNodes: 50 },
      (d: Doc) => {
        dataOf(d).relationships = { r: { data: new Array(300).fill({ type: "t", id: "1" }) } };
      },
    ],
    [
      "meta nested at the depth limit",
      { maxDepth: 4 },
      (d: Doc) => (dataOf(d).meta = { a: { b: { c: {} } } }),
    ],
  ] as const)("issues capped and limits met: %s", (_, options, change) => {
    for (const entry of documentEntries) expectSameAsReference(entry, () => at(change), options);
  });
});

function objectOfMany(prefix: string, value: unknown): Doc {
  const out: Doc = {};
  for (let i = 0; i < 300; i++) out[`${prefix}${i}`] = value;
  return out;
}

describe("discrepancies with the reference, by class (compiled behaviour pinned)", () => {
  it("a proxy whose has trap throws: the compiled parsers ask only of missing members", () => {
    for (const entry of documentEntries) {
      const input = at((d) => (dataOf(d).meta = throwingProxy("has", { "idempotency-key": "k", t: 1 })));
      expect(entry.safe(input).success, entry.which).toBe(true);
      expect(entry.reference(input).error?.issues[0]?.code, entry.which).toBe("unreadable");
    }
  });

  it("a getter that changes: the reference reads some members twice, the compiled parsers once", () => {
    const make = () => at((d) => (dataOf(d).meta = changingMember("trace", 1, undefined)));
    expect(safeParseEventDocument(make()).success).toBe(true);
    expect(documentEntries[0]!.reference(make()).success).toBe(false);
  });

  it.each([
    ["polluted", 1, ["/data/attributes/content/polluted", "/data/polluted", "/polluted"]],
    ["type", "events", ["/data/attributes/content/type", "/data/attributes/type", "/type"]],
    ["id", "x", ["/data/attributes/content/id", "/data/attributes/id", "/id"]],
    ["enumerable", true, ["/data/attributes/content/enumerable", "/data/enumerable", "/enumerable"]],
  ])(
    "an inherited %s: the compiled parsers report unknown members (the reference may not read the attributes)",
    (key, value, pointers) => {
      // Zod's discriminated union lists its options' shapes with `for…in` when it first needs them:
      // built under the pollution, it cannot read the document ("unreadable"); built before, it
      // answers as the compiled parsers do. So the reference's answer depends on the order of calls.
      polluted(key, value, () => {
        for (const entry of documentEntries) {
          const result = attack(entry, () => small(entry.which));
          expect(result.error?.issues.map((issue) => issue.pointer)).toStrictEqual(pointers);
        }
      });
    },
  );
});

describe("Object.prototype pollution", () => {
  it.each([
    ["data", { type: "events" }],
    ["attributes", {}],
    ["eventType", "s.room.close"],
    ["content", {}],
    ["meta", {}],
    ["links", {}],
    ["relationships", {}],
    ["included", []],
    ["jsonapi", {}],
    ["errors", 1],
    ["href", "/h"],
    ["version", 1],
    ["idempotency-key", "k"],
    ["attributeNames", { eventType: "kind", content: "payload" }],
    ["maxIssues", 1],
    ["maxNodes", 3],
    ["missing", undefined],
    ["p", {}],
  ])("an inherited %s: documents validate as the reference does, and safely", (key, value) => {
    polluted(key, value, () => {
      const inputs = [
        validDocument(),
        { data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } },
      ];
      for (const entry of documentEntries) {
        for (const input of inputs) {
          attack(entry, () => input);
          attack(entry, () => input, {});
          expectSameAsReference(entry, () => input);
          expectSameAsReference(entry, () => input, {});
        }
      }
    });
  });

  it("an inherited member is an unknown member of the document and of data, as for a whole event", () => {
    polluted("polluted", 1, () => {
      const result = safeParseEventDocument({
        data: { type: "events", attributes: { eventType: "s.room.close", content: {} } },
      });
      expect(result.error?.issues.map((issue) => [issue.code, issue.pointer])).toStrictEqual([
        ["unknown_property", "/data/attributes/content/polluted"],
        ["unknown_property", "/data/polluted"],
        ["unknown_property", "/polluted"],
      ]);
      expect(
        safeParseEvent({ type: "s.room.close", content: {} }).error?.issues.map((i) => i.pointer),
      ).toStrictEqual(["/content/polluted", "/polluted"]);
    });
  });
});

describe("what is validated is what is returned: a deep copy, read once", () => {
  it("data shares no object with the input, and later changes to the input do not reach it", () => {
    for (const entry of documentEntries) {
      const input = entry.which === "resource" ? validResource() : validDocument();
      const result = entry.safe(input);
      expect(result.success, entry.which).toBe(true);
      const inputObjects = objectsOf(input);
      for (const object of objectsOf(result.data)) expect(inputObjects.has(object)).toBe(false);
      const before = JSON.stringify(result.data);
      const data = dataOf(input);
      (attributesOf(input).note as Doc).a = "changed";
      ((attributesOf(input).content as Doc).body as unknown) = 5;
      ((data.relationships as Doc).room as Doc).data = null;
      (data.meta as Doc).trace = [1];
      ((data.links as Doc).self as Doc).href = 1;
      if (entry.which === "resource") ((input.included as Doc[])[0] as Doc).id = 5;
      (input.meta as Doc).m = 1;
      (input.jsonapi as Doc).version = 2;
      expect(JSON.stringify(result.data)).toBe(before);
    }
  });

  it("changing the data changes nothing in a later result", () => {
    const first = safeParseEventResource(validResource());
    (dataOf(first.data as Doc).attributes as Doc).eventType = "changed";
    const second = safeParseEventResource(validResource());
    expect(attributesOf(second.data as Doc).eventType).toBe("s.message.text");
  });

  /** Members that read one value, then another on every later read, at each place: the data holds the first. */
  const changing: readonly [string, (first: unknown, then: unknown) => Doc, unknown][] = [
    [
      "a further attribute",
      (a, b) => at((d) => (dataOf(d).attributes = changingMember("note", a, b, attributesOf(d)))),
      { a: 1 },
    ],
    [
      "a member of content",
      (a, b) => at((d) => (attributesOf(d).content = changingMember("body", a, b))),
      "hi",
    ],
    [
      "a relationship",
      (a, b) => at((d) => (dataOf(d).relationships = changingMember("room", a, b))),
      { data: null },
    ],
    [
      "a relationship's data",
      (a, b) => at((d) => (dataOf(d).relationships = { room: changingMember("data", a, b) })),
      [{ type: "t", id: "1" }],
    ],
    ["a link", (a, b) => at((d) => (dataOf(d).links = changingMember("self", a, b))), "/x"],
    [
      "a member of data.meta",
      (a, b) => at((d) => (dataOf(d).meta = changingMember("trace", a, b))),
      { t: 1 },
    ],
    ["a member of the top-level meta", (a, b) => at((d) => (d.meta = changingMember("m", a, b))), [1]],
    [
      "a member of an included resource",
      (a, b) => at((d) => (d.included = [changingMember("type", a, b)])),
      "rooms",
    ],
  ];

  it.each(changing)("%s: the data holds the value validated", (name, make, first) => {
    const hostile = { not: "checked", self: () => 1 };
    for (const entry of documentEntries) {
      if (entry.which === "document" && name.includes("included")) continue;
      const result = entry.safe(make(first, hostile));
      expect(result.success, entry.which).toBe(true);
      expect(comparable(result)).toStrictEqual(comparable(entry.safe(make(first, first))));
    }
  });
});

describe("output bounded whatever the input", () => {
  it.each(places.filter(([name]) => name !== "the document"))(
    "keys with forging characters and of a megabyte in %s stay out of paths and pointers",
    (_, place) => {
      for (const entry of documentEntries) {
        for (const key of [forging, megabyteKey, `a${forging}`, "k".repeat(300)]) {
          const result = attack(entry, () => place({ [key]: Number.NaN, type: "rooms", id: "r1" }));
          expect(result.success).toBe(false);
        }
      }
    },
  );

  it("a megabyte event type is cut in the message and in the error's eventType", () => {
    for (const entry of documentEntries) {
      const result = attack(entry, () => at((d) => (attributesOf(d).eventType = megabyte)));
      expect(result.error?.code).toBe("ERR_UNKNOWN_EVENT_TYPE");
    }
  });

  it("a String object or a typed array of megabytes is over the node limit at once", () => {
    const inputs = [
      at((d) => (d.data = new String("x".repeat(2 ** 21)))),
      at((d) => (dataOf(d).attributes = new Uint8Array(2 ** 23))),
      at((d) => (dataOf(d).meta = new Uint8Array(2 ** 23))),
      at((d) => (d.included = [new Uint8Array(2 ** 23)])),
      at((d) => (dataOf(d).id = new String("x".repeat(2 ** 21)))),
    ];
    for (const entry of documentEntries) for (const input of inputs) attack(entry, () => input);
  });
});

describe("the server's path: hostile JSON bodies through createEventsHandler", () => {
  const bodies: readonly [string, string][] = [
    [
      "forging keys everywhere",
      JSON.stringify(
        at((d) => {
          attributesOf(d)[forging] = 1;
          (attributesOf(d).content as Doc)[forging] = 1;
          dataOf(d).relationships = { [forging]: { data: null } };
          d[forging] = 1;
        }),
      ),
    ],
    ["a megabyte key", JSON.stringify(at((d) => (dataOf(d).links = { [megabyteKey]: 1 })))],
    ["a megabyte event type", JSON.stringify(at((d) => (attributesOf(d).eventType = megabyte)))],
    [
      "__proto__ members",
      '{"__proto__":{"x":1},"data":{"type":"events","__proto__":[],"attributes":{"eventType":"s.room.close","content":{"__proto__":1}}}}',
    ],
    [
      "50,000 nested arrays",
      `{"data":{"type":"events","attributes":{"eventType":"s.room.close","content":{}},"meta":{"x":${"[".repeat(50_000)}${"]".repeat(50_000)}}}}`,
    ],
  ];

  it.each(bodies)("%s: a 4xx whose errors are bounded and safe, and nothing created", async (_, body) => {
    let created = 0;
    const handler = createEventsHandler({
      authorize: () => "tenant",
      create: () => {
        created++;
        return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
      },
      maxBodyBytes: 4 * 2 ** 20,
    });
    try {
      const response = await handler(
        new Request("https://api.example.com/events", {
          method: "POST",
          headers: { "content-type": "application/vnd.api+json", "service-idempotency-key": "k-1" },
          body,
        }),
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const text = await response.text();
      expect(text.length).toBeLessThan(20_000);
      const { errors } = JSON.parse(text) as { errors: { detail?: string; source?: { pointer?: string } }[] };
      for (const error of errors) {
        expect(error.detail ?? "").not.toMatch(unsafe);
        expect(error.detail ?? "").not.toMatch(/x{41}|k{41}/);
        expect((error.source?.pointer ?? "").length).toBeLessThanOrEqual(256);
      }
      expect(created).toBe(0);
    } finally {
      await handler.close();
    }
  });
});

describe("found by a hostile review of the document parsers, and fixed", () => {
  it("a relationship is judged as it was walked: a second read cannot cost more than the node limit", () => {
    // With an issue before it (an empty id), the JSON of relationships is walked without a copy and
    // the JSON:API rules then read the input again: the relationship's `data` getter now answers
    // a sparse array of 200,000 holes (it could be 2^32 - 1), each of them read and reported,
    // under a node limit of 1,000.
    let indexReads = 0;
    const holes: unknown[] = [];
    holes.length = 200_000;
    const counted = new Proxy(holes, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) indexReads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const input = at((d) => {
      dataOf(d).id = "";
      dataOf(d).relationships = { room: changingMember("data", [], counted) };
    });
    const result = safeParseEventDocument(input, { maxNodes: 1000 });
    expect(indexReads, "entries read past the node limit").toBeLessThanOrEqual(1000);
    // What was walked (data: []) holds no issue: only the id's.
    expect(result.error?.issues.map((issue) => issue.pointer)).toStrictEqual(["/data/id", "/data/id"]);
    expect(result.error?.omittedIssues).toBe(0);
  });

  it("once the node limit is spent, no further object has its members listed", () => {
    // 1,000 references to one object of 100 members: the limit of 1,000 values is spent by the
    // array itself, yet the copy of `included` lists the members of every entry (the cost grows
    // with entries × members: 200,000 references to an object of 1,000 members take seconds,
    // where the reference answers in milliseconds).
    let listings = 0;
    const members: Doc = {};
    for (let i = 0; i < 100; i++) members[`k${i}`] = i;
    const shared = new Proxy(members, {
      ownKeys(target) {
        listings++;
        return Reflect.ownKeys(target);
      },
    });
    const input = at((d) => (d.included = new Array(1000).fill(shared)));
    const result = safeParseEventResource(input, { maxNodes: 1000 });
    expect(result.error?.issues[0]?.code).toBe("too_many_nodes");
    expect(listings, "objects listed after the node limit was spent").toBeLessThanOrEqual(10);
  });

  it("attribute names of 129 to 256 characters are refused; content issues under a 128-character name keep their place", () => {
    // JSON:API allows field names of up to 256 characters, but issue pointers are cut at 256: under
    // a longer content name every content issue would point at /data/attributes and be classed as
    // the document's. Names are refused past 128 characters, so pointers to the content stay whole.
    const input = (name: string) => ({
      data: { type: "events", attributes: { kind: "s.room.pin", [name]: { value: 1 } } },
    });
    for (const length of [129, 240, 256]) {
      const content = "c".repeat(length);
      for (const entry of documentEntries) {
        const result = entry.safe(input(content), { attributeNames: { eventType: "kind", content } });
        expect(result.error?.code, `${entry.which}, ${length}`).toBe("ERR_INVALID_OPTIONS");
      }
    }
    const content = "c".repeat(128);
    const result = safeParseEventDocument(input(content), { attributeNames: { eventType: "kind", content } });
    expect(result.error?.code).toBe("ERR_INVALID_EVENT_CONTENT");
    expect(result.error?.issues[0]?.path.slice(0, 3)).toStrictEqual(["data", "attributes", content]);
  });

  it("an unknown event type under the longest attribute name has a pointer of at most 256 characters", () => {
    const eventType = "t".repeat(128);
    const options: DocumentParseOptions = { attributeNames: { eventType, content: "payload" } };
    const input = { data: { type: "events", attributes: { [eventType]: "s.nope", payload: {} } } };
    for (const entry of documentEntries) {
      const result = entry.safe(input, options);
      expect(result.error?.code).toBe("ERR_UNKNOWN_EVENT_TYPE");
      expect(result.error?.issues[0]?.pointer).toBe(`/data/attributes/${eventType}`);
      expectSaneResult(result, new Set());
    }
  });

  it.each([
    ["toString", "valueOf"],
    ["constructor", "hasOwnProperty"],
    ["isPrototypeOf", "toLocaleString"],
  ])(
    "attribute names %s and %s: a missing attribute is missing, not an inherited function",
    (eventType, content) => {
      // Legal JSON:API field names, but every object inherits them: a document without the
      // attribute would seem to hold a function. Such names are refused with the options' code.
      const options: DocumentParseOptions = { attributeNames: { eventType, content } };
      const inputs = [
        { data: { type: "events", attributes: {} } },
        { data: { type: "events", attributes: { [eventType]: "s.room.close" } } },
      ];
      for (const entry of documentEntries) {
        for (const input of inputs) {
          const result = entry.safe(input, options);
          expect(result.error?.code, entry.which).toBe("ERR_INVALID_OPTIONS");
          for (const issue of result.error?.issues ?? []) expect(issue.message).not.toMatch(/a function$/);
        }
      }
    },
  );

  it("options that cannot be read are the caller's mistake, not an unreadable document", () => {
    // Options whose getters throw, or a revoked proxy as the names, are the caller's mistake, as
    // names JSON:API forbids are: ERR_INVALID_OPTIONS, not a valid document blamed as unreadable.
    const throwing = [
      {
        get attributeNames(): never {
          throw new Error("names");
        },
      },
      { attributeNames: revokedProxy() },
      throwingProxy("get", {}),
    ];
    for (const options of throwing) {
      for (const entry of documentEntries) {
        const result = entry.safe(validDocument(), options);
        expect(result.error?.code, entry.which).toBe("ERR_INVALID_OPTIONS");
      }
    }
  });

  it.each([
    ["a string", "kind"],
    ["a number", 5],
    ["null", null],
    ["an array", ["kind", "payload"]],
  ])("attributeNames that is %s is refused, not read as the default names", (_what, attributeNames) => {
    const options = { attributeNames } as unknown as DocumentParseOptions;
    for (const entry of documentEntries) {
      expect(entry.safe(validDocument(), options).error?.code, entry.which).toBe("ERR_INVALID_OPTIONS");
    }
  });

  it("an own __proto__ member is copied, and the message read, even when Object.prototype has get and set members", () => {
    const prototype = Object.prototype as Record<string, unknown>;
    // Annotations are copied before any inherited member is reported: the copy writes `__proto__`.
    const input = at((d) => {
      attributesOf(d).content = { body: "hi", annotations: JSON.parse('{"__proto__": {"x": 1}}') };
    });
    const codes: unknown[] = [];
    try {
      prototype.get = () => 1;
      prototype.set = () => undefined;
      for (const entry of documentEntries) {
        const error = entry.safe(input).error;
        codes.push(error?.issues[0]?.code);
        // The message is written when first read, onto the error: that must not throw either.
        codes.push(typeof error?.message);
      }
    } finally {
      delete prototype.get;
      delete prototype.set;
    }
    // Asserted once the prototype is clean again (the assertion library defines properties too).
    expect(codes).not.toContain("unreadable");
    expect(codes).toHaveLength(documentEntries.length * 2);
  });
});
