import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createWebhookSigner,
  createWebhookVerifier,
  isWebhookVerificationError,
  safeVerifyWebhookSignature as safeVerifyWebhook,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "./index.js";

const verifyWebhook = async (options: VerifyWebhookOptions) =>
  (await verifyWebhookSignature(options)).payload;

const secret = "whsec_unit";
const T0 = Date.parse("2026-11-22T18:00:00.000Z");
const payload = { type: "s.room.close", version: 2, content: {}, roomId: "room-42" };
const signed = await signWebhook({ payload, secret, timestamp: T0 });
const base: VerifyWebhookOptions = { body: signed.body, headers: signed.headers, secret, now: T0 };

async function codeOf(options: unknown): Promise<WebhookVerificationErrorCode | undefined> {
  const result = await safeVerifyWebhook(options as VerifyWebhookOptions);
  return result.error?.code;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("verifyWebhookSignature", () => {
  it("accepts what signWebhook signed and resolves to the parsed JSON, the time and the signature", async () => {
    expect(signed.headers["service-timestamp"]).toBe("2026-11-22T18:00:00.000Z");
    expect(signed.headers["service-signature"]).toMatch(/^[\w-]{86}$/);
    const hex = (await signWebhook({ payload, secret, timestamp: T0, encoding: "hex" })).headers[
      "service-signature"
    ];
    const expiresAt = new Date(T0 + 300_000);
    expect(await verifyWebhookSignature(base)).toEqual({
      payload,
      timestamp: new Date(T0),
      expiresAt,
      signature: hex,
    });
    const result = await safeVerifyWebhook(base);
    expect(result).toEqual({
      success: true,
      data: payload,
      timestamp: new Date(T0),
      expiresAt,
      signature: hex,
    });
  });

  it("signs with the first of a list of secrets, newest first, which a verifier with the same list accepts", async () => {
    const rotating = await signWebhook({ payload, secret: ["whsec_new", "whsec_old"], timestamp: T0 });
    const newest = await signWebhook({ payload, secret: "whsec_new", timestamp: T0 });
    expect(rotating.headers["service-signature"]).toBe(newest.headers["service-signature"]);
    const list = { ...rotating, secret: ["whsec_new", "whsec_old"], now: T0 };
    expect((await safeVerifyWebhook(list)).success).toBe(true);
    const old = { ...rotating, secret: "whsec_old", now: T0 };
    expect((await safeVerifyWebhook(old)).error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
  });

  it("takes the body as a string, Uint8Array, ArrayBuffer or Buffer", async () => {
    const bytes = new TextEncoder().encode(signed.body);
    for (const body of [signed.body, bytes, bytes.buffer, Buffer.from(signed.body)]) {
      expect(await verifyWebhook({ ...base, body })).toEqual(payload);
    }
  });

  it("takes bytes from another realm (a test runner's vm context)", async () => {
    const { runInNewContext } = await import("node:vm");
    const foreign = runInNewContext("new Uint8Array(bytes)", {
      bytes: [...new TextEncoder().encode(signed.body)],
    });
    expect(foreign instanceof Uint8Array).toBe(false);
    expect(await verifyWebhook({ ...base, body: foreign })).toEqual(payload);
  });

  it("says how far off a timestamp is, even decades off", async () => {
    const result = await safeVerifyWebhook({ ...base, now: T0 + 3e12 });
    expect(result.error?.message).toMatch(/^signed 3000000000 s ago/);
  });

  it("says a future timestamp is in the future, and hints at milliseconds when now looks like seconds", async () => {
    const ahead = await safeVerifyWebhook({ ...base, now: T0 - 599_988 });
    expect(ahead.error?.code).toBe("ERR_WEBHOOK_TIMESTAMP_IN_FUTURE");
    expect(ahead.error?.message).toBe(
      "signed 599.988 s in the future, outside the tolerance of 300 s (toleranceMs 300000)",
    );
    const seconds = await safeVerifyWebhook({ ...base, now: Math.floor(T0 / 1000) });
    expect(seconds.error?.code).toBe("ERR_WEBHOOK_TIMESTAMP_IN_FUTURE");
    expect(seconds.error?.message).toMatch(/now is in milliseconds \(Date\.now\(\)\)/);
  });

  it("takes headers as Fetch Headers, Node's IncomingHttpHeaders or any-case records", async () => {
    const fetchHeaders = new Headers(signed.headers);
    const node = {
      "service-timestamp": signed.headers["service-timestamp"],
      "service-signature": signed.headers["service-signature"],
      host: "x",
    };
    const shouting = {
      "SERVICE-TIMESTAMP": signed.headers["service-timestamp"],
      "Service-Signature": signed.headers["service-signature"],
    };
    for (const headers of [fetchHeaders, node, shouting])
      expect(await verifyWebhook({ ...base, headers })).toEqual(payload);
  });

  it("accepts any one of several secrets (rotation)", async () => {
    expect(await verifyWebhook({ ...base, secret: ["new-secret", secret] })).toEqual(payload);
    expect(await verifyWebhook({ ...base, secret: [new TextEncoder().encode(secret)] })).toEqual(payload);
    expect(await codeOf({ ...base, secret: ["new-secret", "other"] })).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
  });

  it("allows 300 s of drift both ways by default, configurable", async () => {
    expect((await safeVerifyWebhook({ ...base, now: T0 + 300_000 })).success).toBe(true);
    expect((await safeVerifyWebhook({ ...base, now: T0 - 300_000 })).success).toBe(true);
    expect(await codeOf({ ...base, now: T0 + 300_001 })).toBe("ERR_WEBHOOK_TIMESTAMP_TOO_OLD");
    expect(await codeOf({ ...base, now: T0 - 300_001 })).toBe("ERR_WEBHOOK_TIMESTAMP_IN_FUTURE");
    expect(
      (await safeVerifyWebhook({ ...base, now: new Date(T0 + 3_600_000), toleranceMs: 3_600_000 })).success,
    ).toBe(true);
    expect(await codeOf({ ...base, now: T0 + 11_000, toleranceMs: 10_000 })).toBe(
      "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    );
  });

  it("parses any RFC 3339 service-timestamp", async () => {
    for (const timestamp of [
      "2026-11-22T18:00:00Z",
      "2026-11-22t18:00:00z",
      "2026-11-22T19:30:00.000+01:30",
      "2026-11-22T12:00:00.123456-06:00",
    ]) {
      const again = await signWebhook({ payload, secret, timestamp });
      const result = await safeVerifyWebhook({ ...again, secret, now: T0 });
      expect(result.success, timestamp).toBe(true);
      expect(Math.abs(result.timestamp!.getTime() - T0)).toBeLessThan(1000);
    }
  });

  describe("every failure has its own code", () => {
    const withHeaders = (headers: Record<string, string>) => ({
      ...base,
      headers: { ...signed.headers, ...headers },
    });
    const table: [string, unknown, WebhookVerificationErrorCode][] = [
      [
        "missing service-timestamp",
        { ...base, headers: { "service-signature": signed.headers["service-signature"] } },
        "ERR_WEBHOOK_HEADER_MISSING",
      ],
      [
        "missing service-signature",
        { ...base, headers: { "service-timestamp": signed.headers["service-timestamp"] } },
        "ERR_WEBHOOK_HEADER_MISSING",
      ],
      ["no headers at all", { ...base, headers: new Headers() }, "ERR_WEBHOOK_HEADER_MISSING"],
      [
        "malformed timestamp",
        withHeaders({ "service-timestamp": "yesterday" }),
        "ERR_WEBHOOK_TIMESTAMP_MALFORMED",
      ],
      [
        "timestamp without offset",
        withHeaders({ "service-timestamp": "2026-11-22T18:00:00" }),
        "ERR_WEBHOOK_TIMESTAMP_MALFORMED",
      ],
      [
        "timestamp on 30 February",
        withHeaders({ "service-timestamp": "2026-02-30T18:00:00Z" }),
        "ERR_WEBHOOK_TIMESTAMP_MALFORMED",
      ],
      ["too old", { ...base, now: T0 + 301_000 }, "ERR_WEBHOOK_TIMESTAMP_TOO_OLD"],
      ["too far in the future", { ...base, now: T0 - 301_000 }, "ERR_WEBHOOK_TIMESTAMP_IN_FUTURE"],
      ["malformed signature", withHeaders({ "service-signature": "abc" }), "ERR_WEBHOOK_SIGNATURE_MALFORMED"],
      [
        "signature of the wrong length",
        withHeaders({ "service-signature": "a".repeat(127) }),
        "ERR_WEBHOOK_SIGNATURE_MALFORMED",
      ],
      [
        "unpadded standard base64",
        withHeaders({ "service-signature": `${"+".repeat(85)}A` }),
        "ERR_WEBHOOK_SIGNATURE_MALFORMED",
      ],
      [
        "padded base64url",
        withHeaders({ "service-signature": `${"-".repeat(85)}A==` }),
        "ERR_WEBHOOK_SIGNATURE_MALFORMED",
      ],
      [
        "two signatures",
        withHeaders({
          "service-signature": `${signed.headers["service-signature"]}, ${signed.headers["service-signature"]}`,
        }),
        "ERR_WEBHOOK_SIGNATURE_MALFORMED",
      ],
      ["mismatch", withHeaders({ "service-signature": "0".repeat(128) }), "ERR_WEBHOOK_SIGNATURE_MISMATCH"],
      ["wrong secret", { ...base, secret: "whsec_other" }, "ERR_WEBHOOK_SIGNATURE_MISMATCH"],
      ["empty secret", { ...base, secret: "" }, "ERR_WEBHOOK_SECRET_INVALID"],
      ["empty secret bytes", { ...base, secret: new Uint8Array() }, "ERR_WEBHOOK_SECRET_INVALID"],
      ["empty list of secrets", { ...base, secret: [] }, "ERR_WEBHOOK_SECRET_INVALID"],
      ["a number as secret", { ...base, secret: 42 }, "ERR_WEBHOOK_SECRET_INVALID"],
      ["parsed body", { ...base, body: payload }, "ERR_WEBHOOK_BODY_PARSED"],
      ["body a number", { ...base, body: 42 }, "ERR_WEBHOOK_INVALID_INPUT"],
      ["now not a date", { ...base, now: "today" }, "ERR_WEBHOOK_INVALID_INPUT"],
      ["now null", { ...base, now: null }, "ERR_WEBHOOK_INVALID_INPUT"],
      ["headers not an object", { ...base, headers: "service-timestamp: x" }, "ERR_WEBHOOK_INVALID_INPUT"],
      ["negative tolerance", { ...base, toleranceMs: -1 }, "ERR_WEBHOOK_INVALID_INPUT"],
    ];
    it.each(table)("%s", async (_name, options, code) => {
      expect(await codeOf(options)).toBe(code);
      await expect(verifyWebhook(options as VerifyWebhookOptions)).rejects.toMatchObject({
        code,
        name: "WebhookVerificationError",
      });
    });

    it("body not JSON (but authentic)", async () => {
      const text = await signWebhook({ payload: "not json", secret, timestamp: T0 });
      expect(await codeOf({ ...text, secret, now: T0 })).toBe("ERR_WEBHOOK_BODY_NOT_JSON");
      const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]);
      const bytesSigned = await signWebhook({ payload: "", secret, timestamp: T0 });
      expect(await codeOf({ body: invalidUtf8, headers: bytesSigned.headers, secret, now: T0 })).toBe(
        "ERR_WEBHOOK_SIGNATURE_MISMATCH",
      );
    });

    it("a parsed body gets a message that says exactly that", async () => {
      const result = await safeVerifyWebhook({ ...base, body: payload as never });
      expect(result.error?.message).toMatch(/parsed/);
      expect(result.error?.message).toMatch(/raw body/);
    });
  });

  it("checks the secret before anything else", async () => {
    expect(await codeOf({ body: 1, headers: null, secret: "" })).toBe("ERR_WEBHOOK_SECRET_INVALID");
  });

  it("errors are recognisable across realms and copies", async () => {
    const result = await safeVerifyWebhook({ ...base, secret: "x" });
    expect(result.error).toBeInstanceOf(WebhookVerificationError);
    expect(isWebhookVerificationError(result.error)).toBe(true);
    const foreign = Object.assign(new Error("x"), {
      name: "WebhookVerificationError",
      code: "ERR_WEBHOOK_SIGNATURE_MISMATCH",
    });
    expect(isWebhookVerificationError(foreign)).toBe(true);
    expect(isWebhookVerificationError(new Error("x"))).toBe(false);
  });
});

describe("properties", () => {
  const anySecret = fc.oneof(
    fc.string({ minLength: 1, unit: "binary" }),
    fc.uint8Array({ minLength: 1, maxLength: 200 }),
  );
  const anyBody = fc.jsonValue().map((value) => JSON.stringify(value));
  const anyTime = fc.integer({
    min: Date.parse("1970-01-02T00:00:00Z"),
    max: Date.parse("2999-12-31T00:00:00Z"),
  });

  it("sign then verify round-trips for arbitrary bodies, secrets, times and encodings", async () => {
    await fc.assert(
      fc.asyncProperty(
        anyBody,
        anySecret,
        anyTime,
        fc.constantFrom("base64url", "hex", "base64" as const),
        async (body, key, time, encoding) => {
          const message = await signWebhook({ payload: body, secret: key, timestamp: time, encoding });
          const result = await safeVerifyWebhook({ ...message, secret: key, now: time });
          expect(result.success, result.error?.message).toBe(true);
          expect(result.data).toEqual(JSON.parse(body));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("any change to the body, the timestamp or the signature fails", async () => {
    await fc.assert(
      fc.asyncProperty(
        anyBody,
        anySecret,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (body, key, position, flip) => {
          const message = await signWebhook({ payload: body, secret: key, timestamp: T0, encoding: "hex" });
          const bytes = new TextEncoder().encode(message.body);
          const changedBody = bytes.slice();
          changedBody[position % bytes.length]! ^= flip;
          const stamp = message.headers["service-timestamp"];
          const signature = message.headers["service-signature"];
          const index = position % signature.length;
          const changedSignature = `${signature.slice(0, index)}${signature[index] === "0" ? "1" : "0"}${signature.slice(index + 1)}`;
          const attempts: Partial<VerifyWebhookOptions>[] = [
            { body: changedBody },
            { body: `${message.body} ` },
            { headers: { ...message.headers, "service-timestamp": stamp.replace(".000Z", ".001Z") } },
            { headers: { ...message.headers, "service-signature": changedSignature } },
          ];
          for (const attempt of attempts) {
            const result = await safeVerifyWebhook({ ...message, secret: key, now: T0, ...attempt });
            expect(result.success).toBe(false);
            expect(result.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("garbage in any argument never makes safeVerifyWebhook reject", async () => {
    const garbage = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withTypedArray: true,
      withNullPrototype: true,
      maxDepth: 2,
    });
    await fc.assert(
      fc.asyncProperty(
        garbage,
        garbage,
        garbage,
        garbage,
        garbage,
        async (body, headers, key, toleranceMs, now) => {
          const result = await safeVerifyWebhook({
            body,
            headers,
            secret: key,
            toleranceMs,
            now,
          } as never);
          expect(result.success).toBe(false);
          expect(isWebhookVerificationError(result.error)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    for (const options of [undefined, null, 42, "x", [], new Headers()]) {
      expect((await safeVerifyWebhook(options as never)).success).toBe(false);
    }
  });

  it("no failure message contains the secret, the expected signature or the received one", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 8, maxLength: 40 }), anyBody, async (key, body) => {
        const message = await signWebhook({ payload: body, secret: key, timestamp: T0 });
        const expected = await Promise.all(
          (["hex", "base64", "base64url"] as const).map(
            async (encoding) =>
              (await signWebhook({ payload: body, secret: key, timestamp: T0, encoding })).headers[
                "service-signature"
              ],
          ),
        );
        const received = `${"f".repeat(127)}g`;
        for (const attempt of [
          { body: `${message.body}x` },
          { now: T0 + 10_000_000 },
          { headers: { ...message.headers, "service-signature": "f".repeat(128) } },
          { headers: { ...message.headers, "service-signature": received } },
          { secret: `${key}!` },
        ]) {
          const result = await safeVerifyWebhook({ ...message, secret: key, now: T0, ...attempt });
          for (const hidden of [key, `${key}!`, received, "f".repeat(128), ...expected]) {
            expect(result.error?.message).not.toContain(hidden);
            expect(String(result.error?.cause ?? "")).not.toContain(hidden);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("keys are imported once", () => {
  it("one-shot calls cache the key per secret", async () => {
    const spy = vi.spyOn(crypto.subtle, "importKey");
    const fresh = `whsec_cache_${Math.random()}`;
    const message = await signWebhook({ payload, secret: fresh, timestamp: T0 });
    for (let i = 0; i < 20; i++) await verifyWebhook({ ...message, secret: fresh, now: T0 });
    expect(spy).toHaveBeenCalledTimes(1);
    // The same bytes as a Uint8Array use the same key.
    await verifyWebhook({ ...message, secret: new TextEncoder().encode(fresh), now: T0 });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("createWebhookVerifier and createWebhookSigner import at creation", async () => {
    const spy = vi.spyOn(crypto.subtle, "importKey");
    const signer = createWebhookSigner({ secret: `whsec_signer_${Math.random()}`, encoding: "base64" });
    const verifier = createWebhookVerifier({
      secret: [`whsec_other_${Math.random()}`, "whsec_unit"],
      toleranceMs: 60_000,
    });
    const calls = spy.mock.calls.length;
    for (let i = 0; i < 10; i++) {
      const message = await signer.sign({ payload, timestamp: T0 });
      expect(message.headers["service-signature"]).toMatch(/==$/);
      expect((await verifier.safeVerify({ ...base, now: T0 })).success).toBe(true);
    }
    expect(spy.mock.calls.length).toBe(calls);
    await expect(verifier.verify({ ...base, now: T0 + 61_000 })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    });
  });

  it("createWebhookVerifier refuses a bad secret at once", () => {
    expect(() => createWebhookVerifier({ secret: "" })).toThrow(
      expect.objectContaining({ code: "ERR_WEBHOOK_SECRET_INVALID" }),
    );
  });
});

describe("signWebhook", () => {
  it("writes unpadded base64url by default, hex or padded base64 on request", async () => {
    const spellings = await Promise.all(
      ([undefined, "base64url", "hex", "base64"] as const).map(
        async (encoding) =>
          (await signWebhook({ payload, secret, timestamp: T0, encoding })).headers["service-signature"],
      ),
    );
    expect(spellings[0]).toBe(spellings[1]);
    expect(spellings[1]).toMatch(/^[\w-]{85}[AQgw]$/);
    expect(spellings[2]).toMatch(/^[0-9a-f]{128}$/);
    expect(spellings[3]).toMatch(/^[A-Za-z0-9+/]{85}[AQgw]==$/);
    expect(Buffer.from(spellings[1]!, "base64url").toString("hex")).toBe(spellings[2]);
  });

  it("serialises objects with JSON.stringify and sends strings as they are", async () => {
    expect((await signWebhook({ payload: { a: 1 }, secret })).body).toBe('{"a":1}');
    expect((await signWebhook({ payload: '{ "a" : 1 }', secret })).body).toBe('{ "a" : 1 }');
  });

  it("writes the timestamp as toISOString does, now by default", async () => {
    const before = Date.now();
    const { headers } = await signWebhook({ payload, secret });
    const stamped = Date.parse(headers["service-timestamp"]);
    expect(headers["service-timestamp"]).toBe(new Date(stamped).toISOString());
    expect(stamped).toBeGreaterThanOrEqual(before - 1);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });

  it("rejects bad input with a TypeError that says what is wrong", async () => {
    await expect(signWebhook({ payload, secret: "" })).rejects.toThrow(TypeError);
    await expect(signWebhook({ payload, secret: [] as never })).rejects.toThrow(/or a list of them/);
    await expect(signWebhook({ payload, secret, timestamp: "yesterday" })).rejects.toThrow(/timestamp/);
    for (const timestamp of [Number.NaN, new Date(Number.NaN), 1e20]) {
      await expect(signWebhook({ payload, secret, timestamp })).rejects.toThrow(TypeError);
    }
    await expect(signWebhook({ payload: undefined, secret })).rejects.toThrow(/payload/);
    await expect(signWebhook({ payload, secret, encoding: "base32" as never })).rejects.toThrow(/encoding/);
    await expect(signWebhook({ payload, secret, encoding: "toString" as never })).rejects.toThrow(/encoding/);
  });
});
