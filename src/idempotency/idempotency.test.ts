import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createIdempotencyKey,
  echoesIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyKeyError,
  isHeaderSafeIdempotencyKey,
  isValidIdempotencyKey,
  readIdempotencyKey,
  withIdempotencyKey,
} from "./index.js";

const document = { data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } };

describe("idempotency keys", () => {
  it("generates random UUID v4 keys", () => {
    const keys = new Set(Array.from({ length: 200 }, createIdempotencyKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isValidIdempotencyKey(key)).toBe(true);
    }
  });

  it.each([
    ["order-42", true],
    ["x", true],
    ["!#$%&'()*+-./:;<=>?@[\\]^_`{|}~", true],
    ["a".repeat(255), true],
    ["a".repeat(256), false],
    ["😀", false],
    ["заказ-42", false],
    ["order 42", false],
    [" order-42", false],
    ["order-42\n", false],
    ["k1, k2", false],
    ["k1,k2", false],
    ["", false],
    ["   ", false],
    ["\t\n", false],
    ["\u007f", false],
    [42, false],
    [null, false],
    [undefined, false],
  ])("accepts %j as a caller key: %s", (value, expected) => {
    expect(isValidIdempotencyKey(value)).toBe(expected);
    expect(isHeaderSafeIdempotencyKey(value)).toBe(expected);
  });

  it("accepts exactly the visible ASCII characters other than the comma", () => {
    for (let code = 0; code < 0x300; code++) {
      const char = String.fromCharCode(code);
      expect(isValidIdempotencyKey(`a${char}b`), `U+${code.toString(16)}`).toBe(
        code >= 0x21 && code <= 0x7e && code !== 0x2c,
      );
    }
  });

  it("refuses bad keys and bad documents with coded errors that do not echo the key", () => {
    for (const key of ["order 42", "k1, k2", "секрет"]) {
      const error = (() => {
        try {
          withIdempotencyKey(document, key);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(IdempotencyKeyError);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as IdempotencyKeyError).code).toBe("ERR_INVALID_IDEMPOTENCY_KEY");
      expect((error as Error).message).not.toContain(key);
    }
    for (const bad of [null, undefined, 42, "doc", [], { data: null }, { data: [] }]) {
      expect(() => withIdempotencyKey(bad as never, "k")).toThrow(
        expect.objectContaining({ code: "ERR_INVALID_EVENT_DOCUMENT" }),
      );
    }
  });

  it("withIdempotencyKey puts the key in both places and leaves the input alone", () => {
    const frozen = Object.freeze({
      data: Object.freeze({ ...document.data, meta: Object.freeze({ trace: "t-1" }) }),
    });
    const { document: keyed, headers, key } = withIdempotencyKey(frozen, "order-42");
    expect(key).toBe("order-42");
    expect(headers).toEqual({ [IDEMPOTENCY_KEY_HEADER]: "order-42" });
    expect(keyed.data.meta).toEqual({ trace: "t-1", "idempotency-key": "order-42" });
    expect(frozen.data.meta).toEqual({ trace: "t-1" });
    const generated = withIdempotencyKey(document);
    expect(generated.headers["Service-Idempotency-Key"]).toBe(
      generated.document.data.meta["idempotency-key"],
    );
    expect(() => withIdempotencyKey(document, " ")).toThrow(IdempotencyKeyError);
  });

  describe("readIdempotencyKey", () => {
    const meta = (key: unknown) => ({ data: { ...document.data, meta: { "idempotency-key": key } } });
    it.each([
      ["both, equal", { "Service-Idempotency-Key": "k1" }, meta("k1"), { success: true, data: "k1" }],
      ["header only, any case", { "service-idempotency-key": "k1" }, document, { success: true, data: "k1" }],
      [
        "header only, Fetch Headers",
        new Headers({ "SERVICE-IDEMPOTENCY-KEY": "k1" }),
        document,
        { success: true, data: "k1" },
      ],
      ["meta only", {}, meta("k1"), { success: true, data: "k1" }],
      ["neither", {}, document, { success: false, error: { reason: "missing" } }],
      [
        "blank header",
        { "service-idempotency-key": " " },
        document,
        { success: false, error: { reason: "invalid" } },
      ],
      ["meta not a string", {}, meta(7), { success: false, error: { reason: "invalid" } }],
      ["too long", {}, meta("k".repeat(256)), { success: false, error: { reason: "invalid" } }],
      [
        "repeated in Node",
        { "service-idempotency-key": ["k1", "k2"] },
        document,
        { success: false, error: { reason: "repeated" } },
      ],
      [
        "repeated in a record, two spellings",
        { "service-idempotency-key": "k1", "Service-Idempotency-Key": "k1" },
        document,
        { success: false, error: { reason: "repeated" } },
      ],
      [
        "repeated and joined by Fetch",
        new Headers([
          ["service-idempotency-key", "k1"],
          ["service-idempotency-key", "k2"],
        ]),
        document,
        { success: false, error: { reason: "invalid" } },
      ],
      [
        "joined by a proxy",
        { "service-idempotency-key": "k1, k2" },
        meta("k1, k2"),
        { success: false, error: { reason: "invalid" } },
      ],
      [
        "header and meta differ",
        { "service-idempotency-key": "k1" },
        meta("k2"),
        { success: false, error: { reason: "mismatch" } },
      ],
    ])("%s", (_name, headers, body, expected) => {
      expect(readIdempotencyKey({ headers, document: body })).toMatchObject(expected);
    });

    it("never throws, whatever it is given", () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), (headers, body) => {
          const result = readIdempotencyKey({ headers, document: body });
          expect(typeof result.success).toBe("boolean");
        }),
        { numRuns: 1000 },
      );
      expect(readIdempotencyKey(undefined as never).success).toBe(false);
    });
  });

  describe("echoesIdempotencyKey", () => {
    const resource = { id: "01", type: "events", meta: { "idempotency-key": "k1" } };
    const inherited = { id: "01", type: "events", meta: Object.create({ "idempotency-key": "k1" }) };
    const throwing = () => {
      throw new Error("trap");
    };
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    it.each([
      ["the document, the same key", { data: resource }, "k1", true],
      ["the resource itself", resource, "k1", true],
      [
        "a resource with attributes but no id",
        { type: "events", attributes: {}, meta: resource.meta },
        "k1",
        true,
      ],
      ["another key", { data: resource }, "k2", false],
      ["no meta", { data: { id: "01" } }, "k1", false],
      ["an empty meta and no key", { data: { meta: {} } }, undefined, false],
      ["an empty meta and an empty key", { data: { meta: {} } }, "", false],
      ["a meta echoing undefined", { data: { meta: { "idempotency-key": undefined } } }, undefined, false],
      [
        "the same invalid key",
        { data: { id: "01", meta: { "idempotency-key": "k1, k2" } } },
        "k1, k2",
        false,
      ],
      ["a non-string key", { data: { id: "01", meta: { "idempotency-key": 42 } } }, 42, false],
      ["top-level meta, data null", { data: null, meta: { "idempotency-key": "k" } }, "k", false],
      ["top-level meta, data an array", { data: [], meta: { "idempotency-key": "k" } }, "k", false],
      [
        "top-level meta, data without meta",
        { data: { id: "01" }, meta: { "idempotency-key": "k" } },
        "k",
        false,
      ],
      ["a bare meta holder that is no resource", { meta: { "idempotency-key": "k" } }, "k", false],
      ["data.meta an array", { data: { id: "01", meta: ["k"] } }, "k", false],
      ["an inherited key", { data: inherited }, "k1", false],
      ["a document inheriting data", Object.create({ data: resource }), "k1", false],
      ["null", null, "k1", false],
      ["a string", "k1", "k1", false],
    ])("%s: %s", (_what, response, key, expected) => {
      expect(echoesIdempotencyKey(response, key as string)).toBe(expected);
    });

    it("answers false for proxies whose traps throw and revoked proxies, without throwing", () => {
      const hostile = [
        new Proxy({}, { get: throwing, has: throwing, getOwnPropertyDescriptor: throwing }),
        revocable.proxy,
        Object.defineProperty({}, "data", { get: throwing, enumerable: true }),
        { data: new Proxy(resource, { getOwnPropertyDescriptor: throwing }) },
      ];
      for (const response of hostile) expect(echoesIdempotencyKey(response, "k1")).toBe(false);
    });

    it("never throws, and never matches without a valid key echoed in the resource's meta", () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), (response, key) => {
          const answer = echoesIdempotencyKey(response, key as string);
          if (answer) expect(isValidIdempotencyKey(key)).toBe(true);
        }),
        { numRuns: 500 },
      );
    });
  });
});
