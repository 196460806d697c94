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
