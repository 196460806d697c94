import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createIdempotencyKey,
  echoesIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  isValidIdempotencyKey,
  readIdempotencyKey,
  withIdempotencyKey,
} from "./index.js";

const document = { data: { type: "events", attributes: { type: "s.room.close", content: {} } } };

describe("idempotency keys (rulings 14 to 16)", () => {
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
    ["a".repeat(255), true],
    ["😀".repeat(255), true],
    ["a".repeat(256), false],
    ["", false],
    ["   ", false],
    ["\t\n", false],
    [42, false],
    [null, false],
    [undefined, false],
  ])("accepts %j as a caller key: %s", (value, expected) => {
    expect(isValidIdempotencyKey(value)).toBe(expected);
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
    expect(() => withIdempotencyKey(document, " ")).toThrow(TypeError);
  });

  describe("readIdempotencyKey", () => {
    const meta = (key: unknown) => ({ data: { ...document.data, meta: { "idempotency-key": key } } });
    it.each([
      ["both, equal", { "Service-Idempotency-Key": "k1" }, meta("k1"), { ok: true, key: "k1" }],
      ["header only, any case", { "service-idempotency-key": "k1" }, document, { ok: true, key: "k1" }],
      [
        "header only, Fetch Headers",
        new Headers({ "SERVICE-IDEMPOTENCY-KEY": "k1" }),
        document,
        { ok: true, key: "k1" },
      ],
      ["meta only", {}, meta("k1"), { ok: true, key: "k1" }],
      ["neither", {}, document, { ok: false, reason: "missing" }],
      ["blank header", { "service-idempotency-key": " " }, document, { ok: false, reason: "invalid" }],
      ["meta not a string", {}, meta(7), { ok: false, reason: "invalid" }],
      ["too long", {}, meta("k".repeat(256)), { ok: false, reason: "invalid" }],
      [
        "header and meta differ",
        { "service-idempotency-key": "k1" },
        meta("k2"),
        { ok: false, reason: "mismatch" },
      ],
    ])("%s", (_name, headers, body, expected) => {
      expect(readIdempotencyKey({ headers, document: body })).toMatchObject(expected);
    });

    it("never throws, whatever it is given", () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), (headers, body) => {
          const result = readIdempotencyKey({ headers, document: body });
          expect(typeof result.ok).toBe("boolean");
        }),
        { numRuns: 1000 },
      );
      expect(readIdempotencyKey(undefined as never).ok).toBe(false);
    });
  });

  it("echoesIdempotencyKey checks the response resource", () => {
    const response = { data: { id: "01", type: "events", meta: { "idempotency-key": "k1" } } };
    expect(echoesIdempotencyKey(response, "k1")).toBe(true);
    expect(echoesIdempotencyKey(response.data, "k1")).toBe(true);
    expect(echoesIdempotencyKey(response, "k2")).toBe(false);
    expect(echoesIdempotencyKey({ data: { id: "01" } }, "k1")).toBe(false);
    expect(echoesIdempotencyKey(null, "k1")).toBe(false);
  });
});
