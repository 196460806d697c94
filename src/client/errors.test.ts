import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventsAuthorizationError } from "./EventsAuthorizationError.js";
import { EventsRedirectError } from "./EventsRedirectError.js";
import { EventsResponseTooLargeError } from "./EventsResponseTooLargeError.js";
import {
  EventsApiError,
  EventsClientError,
  EventsResponseError,
  EventsRetryError,
  IdempotencyEchoError,
  isEventsClientError,
} from "./errors.js";

const key = "order-42";

describe("EventsApiError", () => {
  it("exposes the service's code and its full detail, and names both in the message", () => {
    const detail =
      "this idempotency key was already used with a different document; use a new key for a new event";
    const error = new EventsApiError(
      422,
      [{ status: "422", code: "ERR_IDEMPOTENCY_KEY_REUSED", title: "Idempotency key reused", detail }],
      key,
    );
    expect(error).toMatchObject({
      code: "ERR_EVENTS_API",
      serviceCode: "ERR_IDEMPOTENCY_KEY_REUSED",
      detail,
      status: 422,
      idempotencyKey: key,
    });
    expect(error.message).toBe(`the service answered 422 (ERR_IDEMPOTENCY_KEY_REUSED): "${detail}"`);
  });

  it("keeps code ERR_EVENTS_API whatever code the service sends, one of the library's included", () => {
    const error = new EventsApiError(400, [{ code: "ERR_EVENTS_REDIRECT" }], key);
    expect(error.code).toBe("ERR_EVENTS_API");
    expect(error.serviceCode).toBe("ERR_EVENTS_REDIRECT");
  });

  it("takes the code and detail of the first error object, and leaves them undefined when it has none", () => {
    const error = new EventsApiError(422, ["junk", { title: "First" }, { code: "second", detail: "d" }], key);
    expect(error).toMatchObject({ serviceCode: undefined, detail: undefined });
    expect(error.message).toBe('the service answered 422: "First"');
    expect(new EventsApiError(404, undefined, key)).toMatchObject({
      serviceCode: undefined,
      detail: undefined,
    });
  });

  it("quotes up to 1,000 characters of the service's detail, escaped, on one line", () => {
    const detail = `first line\nFAKE LOG LINE ${"x".repeat(10_000_000)}`;
    const error = new EventsApiError(422, [{ detail, title: "t", code: "c" }], key);
    expect(error.message.startsWith('the service answered 422 (c): "first line\\nFAKE LOG LINE xxx')).toBe(
      true,
    );
    expect(error.message.endsWith('x…"')).toBe(true);
    expect(error.message.length).toBe('the service answered 422 (c): ""'.length + 1_001 + 1);
    expect(error.message).not.toMatch(/[\n\r\u2028\u202e]/);
    expect(error.detail?.length).toBe(1_001);
    expect(error.detail?.startsWith("first line\\nFAKE LOG LINE xxx")).toBe(true);
    expect(error.detail?.endsWith("…")).toBe(true);
    expect(error.errors[0]?.detail).toBe(error.detail);
  });

  it("escapes a service code that could forge a line, and shows at most 100 characters of it", () => {
    const code = `bad\ncode ${"c".repeat(5_000)}`;
    const error = new EventsApiError(400, [{ code }], key);
    expect(error.message).toBe(`the service answered 400 ("bad\\ncode ${"c".repeat(91)}…")`);
    expect(error.serviceCode).toBe(`bad\\ncode ${"c".repeat(990)}…`);
  });

  it.each([
    [[{ title: "Too long" }], 'the service answered 422: "Too long"'],
    [[{ code: "too_long" }], "the service answered 422 (too_long)"],
    [[{ code: "too_long", title: "Too long" }], 'the service answered 422 (too_long): "Too long"'],
    [[{ code: "[REDACTED]" }], 'the service answered 422 ("[REDACTED]")'],
    [[{ status: 422 }], "the service answered 422"],
    [[{ detail: "bidi \u202e override" }], 'the service answered 422: "bidi \\u202e override"'],
    [[], "the service answered 422"],
    [undefined, "the service answered 422"],
    ["errors", "the service answered 422"],
  ])("with errors %j, says %s", (errors, message) => {
    expect(new EventsApiError(422, errors, key).message).toBe(message);
  });

  it("keeps the first 100 error objects, only their string members, each cut to 1,000 characters", () => {
    const errors = [
      "not an object",
      null,
      [1, 2],
      {
        id: 7,
        status: "422",
        code: "c".repeat(5_000),
        title: { nested: true },
        detail: "d",
        meta: { secret: "x" },
        links: { about: "https://example.com" },
        source: { pointer: "/data/attributes/content/body", parameter: 5, extra: "x" },
      },
      { source: ["not", "an", "object"] },
      ...Array.from({ length: 150 }, (_, index) => ({ detail: `error ${index}` })),
    ];
    const error = new EventsApiError(422, errors, key);
    expect(error.errors).toHaveLength(100);
    expect(error.errors[0]).toEqual({
      status: "422",
      code: `${"c".repeat(1_000)}…`,
      detail: "d",
      source: { pointer: "/data/attributes/content/body" },
    });
    expect(error.errors[1]).toEqual({});
    expect(error.errors[99]).toEqual({ detail: "error 97" });
  });

  const forging = [
    "\\n",
    "\\r",
    "\\u001b",
    "\\u0000",
    "\\u007f",
    "\\u0085",
    "\\u009b",
    "\\u2028",
    "\\u2029",
    "\\u202e",
    "\\u2066",
    "\\u200f",
  ];
  it.each(forging)(
    "escapes %s in every kept string member, so a logged error cannot forge a line",
    (written) => {
      const char = JSON.parse(`"${written}"`) as string;
      const text = `ok${char}FORGED LOG LINE`;
      const error = new EventsApiError(
        401,
        [
          {
            id: text,
            status: text,
            code: text,
            title: text,
            detail: text,
            source: { pointer: text, parameter: text, header: text },
          },
        ],
        key,
      );
      const kept = error.errors[0]!;
      for (const value of [
        kept.id,
        kept.status,
        kept.code,
        kept.title,
        kept.detail,
        kept.source?.pointer,
        kept.source?.parameter,
        kept.source?.header,
      ]) {
        expect(value).toBe(`ok${written}FORGED LOG LINE`);
      }
      // The message quotes the code and the detail; DEL cannot break a line, and quoting leaves it.
      if (char !== "\x7f")
        expect(error.message).toBe(
          `the service answered 401 ("ok${written}FORGED LOG LINE"): "ok${written}FORGED LOG LINE"`,
        );
      expect(error.serviceCode).toBe(kept.code);
      expect(error.detail).toBe(kept.detail);
    },
  );

  it("cuts after escaping, never inside an escape or a surrogate pair", () => {
    const error = new EventsApiError(
      400,
      [{ detail: `${"x".repeat(997)}\u001b😀`, title: `${"x".repeat(998)}😀` }],
      key,
    );
    expect(error.errors[0]?.detail).toBe(`${"x".repeat(997)}…`);
    expect(error.errors[0]?.title).toBe(`${"x".repeat(998)}😀`);
  });

  it("never throws for a hostile errors value", () => {
    const revocable = Proxy.revocable([], {});
    revocable.revoke();
    const throwing = new Proxy([{ detail: "d" }], {
      get: (target, name) => {
        if (name === "0") throw new Error("trap");
        return Reflect.get(target, name);
      },
    });
    expect(new EventsApiError(400, revocable.proxy, key).errors).toEqual([]);
    expect(new EventsApiError(400, throwing, key)).toMatchObject({
      message: "the service answered 400",
      serviceCode: undefined,
      detail: undefined,
    });
  });

  it("never splits a surrogate pair when cutting", () => {
    const error = new EventsApiError(400, [{ detail: `${"x".repeat(999)}😀😀` }], key);
    expect(error.errors[0]?.detail).toBe(`${"x".repeat(999)}…`);
  });

  it("bounds whatever the service sent", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (errors) => {
        const error = new EventsApiError(400, errors, key);
        // At most 100 characters of the code and 1,000 of the detail, each escaped (6 for 1 at worst).
        expect(error.message.length).toBeLessThan(40 + 6 * 1_100);
        expect(error.message).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(error.serviceCode?.length ?? 0).toBeLessThanOrEqual(1_001);
        expect(error.detail?.length ?? 0).toBeLessThanOrEqual(1_001);
        expect(error.errors.length).toBeLessThanOrEqual(100);
        expect(JSON.stringify(error.errors).length).toBeLessThan(100 * 8 * 1_100);
      }),
      { numRuns: 200 },
    );
  });
});

describe("IdempotencyEchoError", () => {
  it.each([
    [undefined, undefined, /does not echo/],
    ["other-key", "other-key", /echoes "other-key" in meta/],
    [42, 42, /echoes 42/],
    [null, null, /echoes null/],
    [{ big: "x".repeat(1_000) }, undefined, /echoes an object/],
    [["a"], undefined, /echoes an array/],
  ])("keeps %j as %j", (echoed, kept, message) => {
    const error = new IdempotencyEchoError(echoed, key);
    expect(error.echoed).toEqual(kept);
    expect(error.message).toMatch(message);
  });

  it("cuts a long echo and escapes it, in the message and in echoed", () => {
    const error = new IdempotencyEchoError(`a\n\u001b[2J\u202e${"k".repeat(5_000)}`, key);
    expect(error.echoed).toHaveLength(1_001);
    expect(String(error.echoed).startsWith("a\\n\\u001b[2J\\u202ekkk")).toBe(true);
    expect(error.echoed).not.toMatch(/[\n\u202e]/);
    expect(String(error.echoed)).not.toContain(String.fromCharCode(0x1b));
    expect(error.message).toContain('"a\\n\\u001b[2J\\u202ekkk');
    expect(error.message.length).toBeLessThan(150);
  });
});

describe("EventsRedirectError", () => {
  it("names the status and where it pointed, quoted", () => {
    const error = new EventsRedirectError(307, "https://other.example/\nevents", key);
    expect(error).toMatchObject({ code: "ERR_EVENTS_REDIRECT", status: 307, idempotencyKey: key });
    expect(error.message).toBe(
      'the service answered 307 redirecting to "https://other.example/\\nevents"; the client never follows redirects: check baseUrl',
    );
  });

  it("says when the runtime hides the target", () => {
    expect(new EventsRedirectError(0, undefined, key).message).toMatch(
      /opaque redirect redirecting \(the runtime hides where it points\)/,
    );
    expect(new EventsRedirectError(304, undefined, key).message).toMatch(
      /^the service answered 304 redirecting;/,
    );
  });
});

describe("isEventsClientError", () => {
  const instances = [
    new EventsClientError("ERR_EVENTS_API", "m", key),
    new EventsApiError(400, [], key),
    new EventsRetryError("m", 4, 503, key),
    new EventsResponseError(201, "m", [], key),
    new IdempotencyEchoError(undefined, key),
    new EventsRedirectError(308, undefined, key),
    new EventsResponseTooLargeError(201, 10, key),
    new EventsAuthorizationError("m", 0, key, { cause: new Error("x") }),
  ];

  it.each(instances.map((error) => [error.name, error] as const))("recognises %s", (_name, error) => {
    expect(isEventsClientError(error)).toBe(true);
  });

  it("recognises one from another copy of the library or another realm, by its brand", () => {
    const foreign = Object.create(Error.prototype, {
      [Symbol.for("messaging-events.EventsClientError")]: { get: () => true },
      code: { value: "ERR_EVENTS_API" },
    });
    expect(isEventsClientError(foreign)).toBe(true);
  });

  const throwing = () => {
    throw new Error("trap");
  };
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();

  it.each([
    ["null", null],
    ["a number", 42],
    ["a plain Error", new Error("x")],
    ["a look-alike with a code", { code: "ERR_EVENTS_API", idempotencyKey: key }],
    ["a brand that is not true", { [Symbol.for("messaging-events.EventsClientError")]: "yes" }],
    ["a proxy whose traps throw", new Proxy({}, { get: throwing, getPrototypeOf: throwing, has: throwing })],
    ["a revoked proxy", revocable.proxy],
    [
      "a throwing getter on the brand",
      Object.defineProperty({}, Symbol.for("messaging-events.EventsClientError"), { get: throwing }),
    ],
  ])("answers false for %s, without throwing", (_what, value) => {
    expect(isEventsClientError(value)).toBe(false);
  });

  it("never throws", () => {
    fc.assert(
      fc.property(fc.anything({ withMap: true, withSet: true, withTypedArray: true }), (value) => {
        expect(isEventsClientError(value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
