import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, deepCanonicalJson, fingerprintDocument } from "./fingerprintDocument.js";

/** The same JSON value with every object's members in another order. */
function shuffled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shuffled);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, shuffled(member)]),
  );
}

describe("fingerprintDocument", () => {
  it("writes canonical JSON: sorted members, no white space, JSON's own escapes", () => {
    expect(canonicalJson({ b: [1, { d: "x", c: null }], a: "é\u2028" })).toBe(
      '{"a":"é\u2028","b":[1,{"c":null,"d":"x"}]}',
    );
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":[]}'))).toBe('{"__proto__":{"x":1},"a":[]}');
  });

  it("is JSON that parses back to the same value, whatever the member order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(shuffled(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("handles nesting far deeper than the call stack", () => {
    const depth = 200_000;
    const deep = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    expect(canonicalJson(deep)).toHaveLength(2 * depth);
  });

  it("is a SHA-256 in hex, equal for equal documents and different for different ones", async () => {
    const a = await fingerprintDocument({ data: { type: "events", attributes: { x: 1 } } });
    const b = await fingerprintDocument(
      JSON.parse('{ "data": { "attributes": { "x": 1 }, "type": "events" } }'),
    );
    const c = await fingerprintDocument({ data: { type: "events", attributes: { x: 2 } } });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(await fingerprintDocument({})).toBe(
      "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
    );
  });
});

describe("canonicalJson: the fast walk and the deep one agree", () => {
  it("on any JSON value, shallow or deeper than the fast walk goes", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 80 }), (value, extraDepth) => {
        let nested: unknown = value;
        for (let i = 0; i < extraDepth; i++) nested = i % 2 === 0 ? [nested] : { a: nested, b: undefined };
        expect(canonicalJson(nested)).toBe(deepCanonicalJson(nested));
      }),
      { numRuns: 500 },
    );
  });
});

describe("canonicalJson: values the sorted copy leaves to the walk", () => {
  it.each([
    [
      "array-index member names, which JavaScript orders first",
      JSON.parse('{"b":1,"10":2,"9":3,"a":{"2":[],"1":null}}'),
    ],
    ["a __proto__ member", JSON.parse('{"z":1,"__proto__":{"y":[1,{"__proto__":2}]}}')],
    ["members named like Object.prototype's methods", { toString: 1, constructor: { valueOf: "x" } }],
    ["values that are not JSON data", { f: () => 1, s: Symbol("s"), list: [() => 1, undefined] }],
  ])("writes %s as the walk does", (_name, value) => {
    expect(canonicalJson(value)).toBe(deepCanonicalJson(value));
  });

  it("ignores a toJSON added to the prototypes, as the walk does", () => {
    const value = { b: [1, { c: 2 }], a: {} };
    const expected = deepCanonicalJson(value);
    const prototypes = [Object.prototype, Array.prototype] as unknown as Record<string, unknown>[];
    for (const prototype of prototypes) {
      prototype.toJSON = () => "replaced";
      try {
        expect(canonicalJson(value)).toBe(expected);
      } finally {
        delete prototype.toJSON;
      }
    }
  });
});

describe("fingerprintDocument: the request, not where its key travelled", () => {
  const event = { type: "events", attributes: { eventType: "s.room.close", content: {} } };

  it("is the same whether the key was in data.meta or only in the header", async () => {
    const headerOnly = await fingerprintDocument({ data: event });
    expect(await fingerprintDocument({ data: { ...event, meta: { "idempotency-key": "pay-42" } } })).toBe(
      headerOnly,
    );
    expect(await fingerprintDocument({ data: { ...event, meta: {} } })).toBe(headerOnly);
  });

  it("still covers the rest of data.meta, which create receives with the document", async () => {
    const a = await fingerprintDocument({
      data: { ...event, meta: { "idempotency-key": "k", source: "a" } },
    });
    expect(await fingerprintDocument({ data: { ...event, meta: { source: "a" } } })).toBe(a);
    expect(await fingerprintDocument({ data: { ...event, meta: { source: "b" } } })).not.toBe(a);
  });

  it("keeps a member named __proto__ a member", async () => {
    const withKey = JSON.parse(
      '{"__proto__":{"x":1},"data":{"type":"events","__proto__":2,"meta":{"idempotency-key":"k","__proto__":3}}}',
    );
    const without = JSON.parse(
      '{"__proto__":{"x":1},"data":{"type":"events","__proto__":2,"meta":{"__proto__":3}}}',
    );
    expect(await fingerprintDocument(withKey)).toBe(await fingerprintDocument(without));
    expect(await fingerprintDocument(without)).not.toBe(
      await fingerprintDocument(JSON.parse('{"data":{"type":"events","meta":{"__proto__":3}}}')),
    );
  });
});

/** The value behind proxies that count every member read: the work a walk does on it. */
function counted(value: unknown, reads: { count: number }): unknown {
  if (typeof value !== "object" || value === null) return value;
  const wrapped: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [name, member] of Object.entries(value)) {
    Object.defineProperty(wrapped, name, { value: counted(member, reads), enumerable: true, writable: true });
  }
  return new Proxy(wrapped, {
    get(target, name, receiver) {
      reads.count++;
      return Reflect.get(target, name, receiver);
    },
  });
}

/** A document of about `size` members, with `tail` nested at the end of it (where a walk finds it last). */
function documentOf(size: number, tail: unknown): unknown {
  const items = Array.from({ length: size / 4 }, (_, index) => ({ b: index, a: "x", c: [true, null] }));
  return { data: { type: "events", attributes: { items, tail } } };
}

describe("canonicalJson: linear cost whatever the document", () => {
  const deep = (depth: number) => {
    let nested: unknown = 1;
    for (let i = 0; i < depth; i++) nested = [nested];
    return nested;
  };
  it.each([
    ["a member name that JavaScript orders first", { "10": 1, a: 2 }],
    ["a member named __proto__", JSON.parse('{"__proto__":{"y":1}}')],
    ["nesting deeper than the fast path goes", deep(100)],
    ["all three", { "1": deep(100), z: JSON.parse('{"__proto__":[1]}') }],
  ])("reads each member at most twice for %s (once for plain data)", (_name, tail) => {
    const size = 4_000;
    const plain = { count: 0 };
    const plainDocument = counted(documentOf(size, "plain"), plain);
    canonicalJson(plainDocument);
    const crafted = { count: 0 };
    const craftedDocument = counted(documentOf(size, tail), crafted);
    expect(canonicalJson(craftedDocument)).toBe(deepCanonicalJson(documentOf(size, tail)));
    // Every read happens in a pass of the fast copy or of the walk, never a third one.
    expect(crafted.count).toBeLessThanOrEqual(2 * plain.count + 1_000);
  });

  it("writes a value once in the walk: reads equal the members and array items", () => {
    const reads = { count: 0 };
    const value = documentOf(4_000, { "0": [1, 2], b: { __proto__: 1 } });
    deepCanonicalJson(counted(value, reads));
    // 1,000 items: the item, its 3 members, its array's length and 2 items; then a few more around them.
    expect(reads.count).toBeLessThan(1_000 * 7 + 50);
  });
});
