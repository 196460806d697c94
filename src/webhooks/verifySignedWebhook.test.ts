/**
 * What every way of verifying shares, tried as an attacker and as a hurried developer would: a
 * forged body is never decoded or parsed, every kind of bytes means its bytes, anything else says
 * what it was, and no `safe…` function or guard throws, whatever it is given.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createWebhookVerifier,
  isWebhookVerificationError,
  safeVerifyWebhook,
  safeVerifyWebhookRequest,
  safeVerifyWebhookSignature,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WebhookVerificationError,
} from "./index.js";

const secret = "whsec_signed";
const T0 = Date.parse("2026-11-22T18:00:00.000Z");
const payload = { type: "s.room.close", version: 2, content: {}, roomId: "room-42" };
const signed = await signWebhook({ payload, secret, timestamp: T0 });
const base = { body: signed.body, headers: signed.headers, secret, now: T0 };
const bodyBytes = new TextEncoder().encode(signed.body);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("nothing of an unauthenticated body is decoded or parsed", () => {
  it.each([
    ["a forged signature", { headers: { ...signed.headers, "service-signature": "0".repeat(128) } }],
    ["a wrong secret", { secret: "whsec_attacker" }],
    ["a deeply nested forged body", { body: `${"[".repeat(50_000)}${"]".repeat(50_000)}` }],
  ])("%s: no TextDecoder, no JSON.parse", async (_name, change) => {
    const parse = vi.spyOn(JSON, "parse");
    const decode = vi.spyOn(TextDecoder.prototype, "decode");
    const result = await safeVerifyWebhookSignature({ ...base, ...change } as VerifyWebhookOptions);
    expect(result.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
    expect(parse).not.toHaveBeenCalled();
    expect(decode).not.toHaveBeenCalled();
  });

  it("an authentic body is decoded and parsed once", async () => {
    const parse = vi.spyOn(JSON, "parse");
    expect((await safeVerifyWebhookSignature(base)).success).toBe(true);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("an authentic body that is not UTF-8 is BODY_NOT_JSON", async () => {
    const invalid = new Uint8Array([0x22, 0xff, 0x22]);
    const binary = { ...base, body: invalid };
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-512" },
      false,
      ["sign"],
    );
    const prefix = new TextEncoder().encode(`${signed.headers["service-timestamp"]}:`);
    const mac = await crypto.subtle.sign("HMAC", key, new Uint8Array([...prefix, ...invalid]));
    const headers = { ...signed.headers, "service-signature": Buffer.from(mac).toString("hex") };
    expect((await safeVerifyWebhookSignature({ ...binary, headers })).error?.code).toBe(
      "ERR_WEBHOOK_BODY_NOT_JSON",
    );
  });
});

describe("every ArrayBufferView and ArrayBuffer means its bytes, exactly", () => {
  const { buffer } = bodyBytes;
  const padded = new Uint8Array(bodyBytes.length + 7);
  padded.set(bodyBytes, 3);
  const shared = new SharedArrayBuffer(bodyBytes.length);
  new Uint8Array(shared).set(bodyBytes);
  const even = bodyBytes.length % 2 === 0;
  const table: [string, unknown][] = [
    ["Uint8Array", bodyBytes],
    ["Buffer", Buffer.from(signed.body)],
    ["pooled Buffer (byteOffset > 0)", Buffer.from(signed.body, "utf8")],
    ["view with byteOffset", padded.subarray(3, 3 + bodyBytes.length)],
    ["DataView", new DataView(buffer)],
    ["DataView with byteOffset", new DataView(padded.buffer, 3, bodyBytes.length)],
    ["ArrayBuffer", buffer],
    ["SharedArrayBuffer", shared],
    ["Uint8Array over a SharedArrayBuffer", new Uint8Array(shared)],
    ["Int8Array", new Int8Array(buffer)],
    ["Uint8ClampedArray", new Uint8ClampedArray(buffer)],
  ];
  if (even) table.push(["Uint16Array", new Uint16Array(buffer)]);
  it.each(table)("%s", async (_name, body) => {
    const result = await safeVerifyWebhookSignature({ ...base, body } as VerifyWebhookOptions);
    expect(result.error?.message).toBeUndefined();
    expect(result.data).toEqual(payload);
  });

  it("wider views keep every byte: a Uint16Array or Float64Array over the signed bytes verifies, its elements do not", async () => {
    // Pad the body with spaces to a multiple of 8 bytes, so every view type fits.
    const text = `${signed.body}${" ".repeat((8 - (bodyBytes.length % 8)) % 8)}`;
    const again = await signWebhook({ payload: text, secret, timestamp: T0 });
    const bytes = new TextEncoder().encode(text);
    for (const View of [Uint16Array, Int32Array, Float32Array, Float64Array, BigInt64Array]) {
      const view = new View(bytes.buffer.slice(0));
      const result = await safeVerifyWebhookSignature({ ...again, secret, now: T0, body: view });
      expect(result.success, View.name).toBe(true);
    }
    // The old bug: a Uint16Array whose low bytes are the signed body must not verify.
    const widened = Uint16Array.from(bytes);
    const result = await safeVerifyWebhookSignature({ ...again, secret, now: T0, body: widened });
    expect(result.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
  });

  it("views and buffers from another realm", async () => {
    const { runInNewContext } = await import("node:vm");
    const context = { bytes: [...bodyBytes] };
    for (const source of [
      "new Uint8Array(bytes)",
      "new Uint8Array(bytes).buffer",
      "new DataView(new Uint8Array(bytes).buffer)",
    ]) {
      const foreign = runInNewContext(source, context);
      const result = await safeVerifyWebhookSignature({ ...base, body: foreign });
      expect(result.success, source).toBe(true);
    }
  });

  it("copies the body first: changing the caller's buffer while verifying changes nothing", async () => {
    const body = bodyBytes.slice();
    const pending = safeVerifyWebhookSignature({ ...base, body });
    body.fill(0x20);
    expect((await pending).success).toBe(true);
  });
});

describe("anything else says what it was and what to do", () => {
  const table: [string, unknown, string, RegExp][] = [
    ["a number", 42, "ERR_WEBHOOK_INVALID_INPUT", /body is a number/],
    ["null", null, "ERR_WEBHOOK_INVALID_INPUT", /body is null/],
    ["a Map", new Map(), "ERR_WEBHOOK_INVALID_INPUT", /body is a Map/],
    ["a parsed object", payload, "ERR_WEBHOOK_BODY_PARSED", /parsed from JSON: pass the raw body/],
    ["a parsed array", [1, 2], "ERR_WEBHOOK_BODY_PARSED", /an array parsed from JSON/],
    [
      "undefined (no body parser)",
      undefined,
      "ERR_WEBHOOK_INVALID_INPUT",
      /^the raw body is missing: with Express use express\.raw\(\{ type: "\*\/\*" \}\) on this route; with NestJS create the app with \{ rawBody: true \}$/,
    ],
    [
      "{} (express.raw skipped for another content type)",
      {},
      "ERR_WEBHOOK_INVALID_INPUT",
      /^the raw body is missing: with Express use express\.raw/,
    ],
    [
      "a Fetch Request",
      new Request("http://localhost/", { method: "POST", body: "{}" }),
      "ERR_WEBHOOK_INVALID_INPUT",
      /^body is a Request: pass await request\.arrayBuffer\(\), or use verifyWebhookRequest$/,
    ],
    ["a Response", new Response("{}"), "ERR_WEBHOOK_INVALID_INPUT", /body is a Response: pass await/],
    ["a ReadableStream", new ReadableStream(), "ERR_WEBHOOK_INVALID_INPUT", /body is a ReadableStream: pass/],
    ["a Blob", new Blob(["{}"]), "ERR_WEBHOOK_INVALID_INPUT", /body is a Blob: pass/],
  ];
  it.each(table)("%s", async (_name, body, code, message) => {
    for (const verify of [safeVerifyWebhookSignature, safeVerifyWebhook]) {
      const result = await verify({ ...base, body } as VerifyWebhookOptions);
      expect(result.error?.code).toBe(code);
      expect(result.error?.message).toMatch(message);
      expect((result.error as WebhookVerificationError).kind).toBe("configuration");
    }
  });

  it("a malformed timestamp is not echoed, nor a malformed signature", async () => {
    const result = await safeVerifyWebhookSignature({
      ...base,
      headers: { ...signed.headers, "service-timestamp": "yesterday\nERR forged log line" },
    });
    expect(result.error?.code).toBe("ERR_WEBHOOK_TIMESTAMP_MALFORMED");
    expect(result.error?.message).not.toMatch(/\n|forged/);
    const signature = `${"a".repeat(127)}\nforged`;
    const malformed = await safeVerifyWebhookSignature({
      ...base,
      headers: { ...signed.headers, "service-signature": signature },
    });
    expect(malformed.error?.message).toBe(
      '"service-signature" (134 characters) is not 128 hex digits, 88 of base64 or 86 of base64url',
    );
  });
});

describe("kind says who must act, status is the HTTP status to answer", () => {
  it.each([
    ["ERR_WEBHOOK_BODY_PARSED", "configuration", 500],
    ["ERR_WEBHOOK_BODY_USED", "configuration", 500],
    ["ERR_WEBHOOK_SECRET_INVALID", "configuration", 500],
    ["ERR_WEBHOOK_INVALID_INPUT", "configuration", 500],
    ["ERR_WEBHOOK_HEADER_MISSING", "authentication", 401],
    ["ERR_WEBHOOK_HEADER_REPEATED", "authentication", 401],
    ["ERR_WEBHOOK_TIMESTAMP_MALFORMED", "authentication", 401],
    ["ERR_WEBHOOK_TIMESTAMP_TOO_OLD", "authentication", 401],
    ["ERR_WEBHOOK_TIMESTAMP_IN_FUTURE", "authentication", 401],
    ["ERR_WEBHOOK_SIGNATURE_MALFORMED", "authentication", 401],
    ["ERR_WEBHOOK_SIGNATURE_MISMATCH", "authentication", 401],
    ["ERR_WEBHOOK_BODY_NOT_JSON", "authentication", 401],
    ["ERR_WEBHOOK_REPLAYED", "authentication", 401],
    ["ERR_WEBHOOK_BODY_TOO_LARGE", "authentication", 413],
    ["ERR_WEBHOOK_ABORTED", "authentication", 408],
    ["ERR_WEBHOOK_ID_INVALID", "authentication", 401],
    ["ERR_WEBHOOK_PAYLOAD_INVALID", "invalid", 422],
    ["ERR_WEBHOOK_HANDLER_FAILED", "handler", 500],
    ["ERR_WEBHOOK_IN_PROGRESS", "unavailable", 409],
    ["ERR_WEBHOOK_STORE_UNAVAILABLE", "unavailable", 503],
  ] as const)("%s is %s, answered %i", (code, kind, status) => {
    const error = new WebhookVerificationError(code, "x");
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
  });
});

describe("a header sent twice is refused: which one was signed is unknown", () => {
  const timestamp = signed.headers["service-timestamp"];
  const signature = signed.headers["service-signature"];
  it.each([
    [
      "two spellings, the good one last",
      { "service-timestamp": timestamp, "Service-Signature": "garbage", "service-signature": signature },
    ],
    [
      "two spellings, the good one first",
      { "service-timestamp": timestamp, "service-signature": signature, "SERVICE-SIGNATURE": "garbage" },
    ],
    [
      "two spellings of the same value",
      { "service-timestamp": timestamp, "service-signature": signature, "Service-Signature": signature },
    ],
    [
      "two timestamps",
      {
        "Service-Timestamp": "2000-01-01T00:00:00Z",
        "service-timestamp": timestamp,
        "service-signature": signature,
      },
    ],
    [
      "Node's array form, two signatures",
      { "service-timestamp": timestamp, "service-signature": [signature, "garbage"] },
    ],
    [
      "Node's array form, two timestamps",
      { "service-timestamp": [timestamp, timestamp], "service-signature": signature },
    ],
  ])("%s", async (_name, headers) => {
    for (const verify of [safeVerifyWebhookSignature, safeVerifyWebhook]) {
      const result = await verify({ ...base, headers } as VerifyWebhookOptions);
      expect(result.error).toMatchObject({
        code: "ERR_WEBHOOK_HEADER_REPEATED",
        kind: "authentication",
        status: 401,
      });
      expect(result.error?.message).toMatch(
        /^the "service-(timestamp|signature)" header came more than once/,
      );
    }
  });

  it("one value, in a record or in Node's array form, is accepted", async () => {
    for (const headers of [
      { "Service-Timestamp": timestamp, "SERVICE-SIGNATURE": signature },
      { "service-timestamp": [timestamp], "service-signature": [signature] },
      new Headers(signed.headers),
    ]) {
      expect((await safeVerifyWebhook({ ...base, headers } as VerifyWebhookOptions)).success).toBe(true);
    }
  });
});

describe("numeric options are numbers, and only the checked number is echoed", () => {
  const forged = { valueOf: () => 5, toString: () => "5\n\u001b[31mFORGED" };
  it.each([
    [
      "toleranceMs an object with valueOf",
      { toleranceMs: forged },
      /^toleranceMs must be a finite number ≥ 0, not an object$/,
    ],
    [
      "toleranceMs a string",
      { toleranceMs: "300" },
      /^toleranceMs must be a finite number ≥ 0, not a string$/,
    ],
    ["toleranceMs NaN", { toleranceMs: Number.NaN }, /not NaN$/],
    ["toleranceMs Infinity", { toleranceMs: Number.POSITIVE_INFINITY }, /not Infinity$/],
    ["toleranceMs negative", { toleranceMs: -1 }, /not -1$/],
    [
      "now an object with valueOf",
      { now: forged },
      /^now must be a valid Date or epoch milliseconds \(Date\.now\(\)\), not an object$/,
    ],
    ["now a string", { now: "2026-11-22T18:00:00Z" }, /not a string$/],
    ["now an invalid Date", { now: new Date(Number.NaN) }, /not a Date$/],
    ["now NaN", { now: Number.NaN }, /not NaN$/],
  ])("%s is refused", async (_name, change, message) => {
    const result = await safeVerifyWebhook({ ...base, ...change } as VerifyWebhookOptions);
    expect(result.error).toMatchObject({ code: "ERR_WEBHOOK_INVALID_INPUT", kind: "configuration" });
    expect(result.error?.message).toMatch(message);
    expect(result.error?.message).not.toMatch(/FORGED|\n/);
  });

  it("a Date of another realm is a Date, and the tolerance in a message is the number", async () => {
    const { runInNewContext } = await import("node:vm");
    const now = runInNewContext(`new Date(${T0})`) as Date;
    expect((await safeVerifyWebhook({ ...base, now })).success).toBe(true);
    const late = await safeVerifyWebhook({ ...base, now: T0 + 11_000, toleranceMs: 10_000 });
    expect(late.error?.message).toBe("signed 11 s ago, outside the tolerance of 10 s (toleranceMs 10000)");
  });
});

describe("a list of secrets is capped at 16, checked before its entries", () => {
  it("a sparse list that claims 2^32 - 1 entries is refused at once", async () => {
    const secrets: unknown[] = [secret];
    secrets.length = 2 ** 32 - 1;
    const result = await safeVerifyWebhook({ ...base, secret: secrets as never });
    expect(result.error).toMatchObject({ code: "ERR_WEBHOOK_SECRET_INVALID", kind: "configuration" });
    expect(() => createWebhookVerifier({ secret: secrets as never })).toThrow(/a list of 1 to 16/);
  });

  it("no entry of a list longer than 16 is read", async () => {
    let reads = 0;
    const list = new Proxy(
      Array.from({ length: 17 }, () => secret),
      {
        get(target, key, receiver) {
          if (typeof key === "string" && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const result = await safeVerifyWebhook({ ...base, secret: list });
    expect(result.error?.code).toBe("ERR_WEBHOOK_SECRET_INVALID");
    expect(reads).toBe(0);
  });

  it("16 secrets, the right one last, verify", async () => {
    const secrets = [...Array.from({ length: 15 }, (_, i) => `old-${i}`), secret];
    expect((await safeVerifyWebhook({ ...base, secret: secrets })).success).toBe(true);
  });
});

describe("a detached buffer says so", () => {
  const detached = () => {
    const buffer = bodyBytes.slice().buffer;
    const view = new Uint8Array(buffer);
    const dataView = new DataView(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    return { buffer, view, dataView };
  };
  it.each(["buffer", "view", "dataView"] as const)("a detached %s as the body", async (which) => {
    const body = detached()[which];
    for (const verify of [safeVerifyWebhookSignature, safeVerifyWebhook]) {
      const result = await verify({ ...base, body });
      expect(result.error).toMatchObject({ code: "ERR_WEBHOOK_INVALID_INPUT", kind: "configuration" });
      expect(result.error?.message).toMatch(/^body is a detached ArrayBuffer/);
    }
  });

  it("a detached secret is an invalid secret", async () => {
    const result = await safeVerifyWebhook({ ...base, secret: detached().view });
    expect(result.error?.code).toBe("ERR_WEBHOOK_SECRET_INVALID");
  });

  it("an empty buffer is not detached: it is an empty body", async () => {
    const result = await safeVerifyWebhookSignature({ ...base, body: new ArrayBuffer(0) });
    expect(result.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
  });
});

/** Values that throw on every touch: a proxy with throwing traps, a revoked proxy, a throwing getter. */
const hostile = (): unknown[] => {
  const trap = () => {
    throw new Error("trap");
  };
  const throwing = new Proxy(
    {},
    {
      get: trap,
      has: trap,
      ownKeys: trap,
      getPrototypeOf: trap,
      getOwnPropertyDescriptor: trap,
      apply: trap,
      construct: trap,
      defineProperty: trap,
      deleteProperty: trap,
      isExtensible: trap,
      preventExtensions: trap,
      set: trap,
      setPrototypeOf: trap,
    },
  );
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const getter = Object.defineProperty({}, "service-timestamp", { enumerable: true, get: trap });
  return [throwing, revoked, getter];
};

describe("every safe function and guard returns, whatever it is given", () => {
  const verifier = createWebhookVerifier({ secret });
  const request = () =>
    new Request("http://localhost/", { method: "POST", headers: signed.headers, body: "{}" });
  const safeCalls: [string, (value: unknown) => Promise<{ success: boolean; error?: unknown }>][] = [
    ["safeVerifyWebhookSignature(options)", (value) => safeVerifyWebhookSignature(value as never)],
    ["safeVerifyWebhook(options)", (value) => safeVerifyWebhook(value as never)],
    ["safeVerifyWebhook({ body })", (value) => safeVerifyWebhook({ ...base, body: value as never })],
    ["safeVerifyWebhook({ headers })", (value) => safeVerifyWebhook({ ...base, headers: value as never })],
    ["safeVerifyWebhook({ secret })", (value) => safeVerifyWebhook({ ...base, secret: value as never })],
    ["safeVerifyWebhook({ now })", (value) => safeVerifyWebhook({ ...base, now: value as never })],
    ["safeVerifyWebhookRequest(request)", (value) => safeVerifyWebhookRequest(value as never, { secret })],
    ["safeVerifyWebhookRequest(_, options)", (value) => safeVerifyWebhookRequest(request(), value as never)],
    [
      "safeVerifyWebhookRequest(_, { signal })",
      (value) => safeVerifyWebhookRequest(request(), { secret, signal: value as never }),
    ],
    ["verifier.safeVerify(input)", (value) => verifier.safeVerify(value as never)],
    ["verifier.safeVerifyRequest(request)", (value) => verifier.safeVerifyRequest(value as never)],
    [
      "verifier.safeVerifyRequest(_, input)",
      (value) => verifier.safeVerifyRequest(request(), value as never),
    ],
  ];

  it.each(safeCalls)("%s with proxies and throwing getters", async (_name, call) => {
    for (const value of hostile()) {
      const result = await call(value);
      expect(result.success).toBe(false);
      expect(isWebhookVerificationError(result.error)).toBe(true);
    }
  });

  it("an unexpected failure is kept as the cause, with a message of its own", async () => {
    const trap = () => {
      throw new Error("trap");
    };
    const options = Object.defineProperty({ ...base }, "body", { enumerable: true, get: trap });
    const result = await safeVerifyWebhookSignature(options);
    expect(result.error?.code).toBe("ERR_WEBHOOK_INVALID_INPUT");
    expect(result.error?.message).toBe("could not verify: an unexpected failure (see cause)");
    expect((result.error?.cause as Error | undefined)?.message).toBe("trap");
  });

  it("isWebhookVerificationError never throws", () => {
    for (const value of hostile()) expect(isWebhookVerificationError(value)).toBe(false);
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withTypedArray: true }), (value) => {
        expect(isWebhookVerificationError(value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("garbage never makes a safe function reject", async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything({ maxDepth: 2, withTypedArray: true }), async (value) => {
        for (const [name, call] of safeCalls) {
          // An optional member left undefined takes its default: the authentic request passes then.
          if (value === undefined && /\{ (now|signal) \}/.test(name)) continue;
          expect((await call(value)).success, name).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("a forged body costs the HMAC: verifyWebhookSignature is not a parser", () => {
  it("a 1 MB nested forged body answers SIGNATURE_MISMATCH (the stack never sees it)", async () => {
    const body = `${"[".repeat(500_000)}${"]".repeat(500_000)}`;
    await expect(verifyWebhookSignature({ ...base, body })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_SIGNATURE_MISMATCH",
    });
  });
});
