/** Every input error of signing is one coded `WebhookSigningError`, and its guard never throws. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createWebhookRequest,
  createWebhookSigner,
  isWebhookSigningError,
  type SignWebhookOptions,
  signWebhook,
  WebhookSigningError,
} from "./index.js";

const secret = "whsec_signing";
const payload = { type: "s.room.close", version: 2, content: {} };
const trap = () => {
  throw new Error("trap");
};
const { proxy: revoked, revoke } = Proxy.revocable({}, {});
revoke();

const bad: [string, unknown, RegExp][] = [
  ["a BigInt payload", { payload: 1n, secret }, /^signWebhook: the payload could not be serialised as JSON/],
  ["a BigInt inside the payload", { payload: { count: 1n }, secret }, /could not be serialised as JSON/],
  ["a payload with a throwing toJSON", { payload: { toJSON: trap }, secret }, /could not be serialised/],
  ["an undefined payload", { payload: undefined, secret }, /payload must be a string or a JSON-serialisable/],
  ["a function payload", { payload: () => 1, secret }, /payload must be a string or a JSON-serialisable/],
  [
    "an empty secret",
    { payload: {}, secret: "" },
    /^signWebhook: the secret must be a non-empty string or bytes$/,
  ],
  ["empty key bytes", { payload, secret: new Uint8Array(0) }, /the secret must be/],
  ["a number secret", { payload, secret: 42 }, /the secret must be/],
  ["an empty list of secrets", { payload, secret: [] }, /the secret must be/],
  ["a list whose newest secret is empty", { payload, secret: ["", "old"] }, /the secret must be/],
  ["a revoked proxy secret", { payload, secret: revoked }, /the secret must be/],
  ["a timestamp string not RFC 3339", { payload, secret, timestamp: "yesterday" }, /the timestamp must be/],
  ["a NaN timestamp", { payload, secret, timestamp: Number.NaN }, /the timestamp must be/],
  ["an invalid Date", { payload, secret, timestamp: new Date(Number.NaN) }, /the timestamp must be/],
  ["a timestamp out of range", { payload, secret, timestamp: 1e20 }, /the timestamp must be/],
  [
    "a timestamp past the year 9999",
    { payload, secret, timestamp: Date.UTC(10_000, 0, 1) },
    /the timestamp must be/,
  ],
  ["a Symbol timestamp", { payload, secret, timestamp: Symbol("t") }, /the timestamp must be/],
  ["an object timestamp", { payload, secret, timestamp: { valueOf: () => 0 } }, /the timestamp must be/],
  ["an unknown encoding", { payload, secret, encoding: "base32" }, /encoding must be/],
  ["an inherited name as encoding", { payload, secret, encoding: "toString" }, /encoding must be/],
  ["an object encoding", { payload, secret, encoding: { toString: trap } }, /encoding must be/],
  ["options that are not an object", "s3cr3t", /the options must be an object/],
  ["options that are a revoked proxy", revoked, /the options must be an object|could not be read/],
  [
    "a secret getter that throws",
    Object.defineProperty({ payload }, "secret", { get: trap }),
    /could not be read/,
  ],
];

describe("every input error of signing is a WebhookSigningError", () => {
  it.each(bad)("signWebhook: %s", async (_name, options, message) => {
    const error = await signWebhook(options as SignWebhookOptions).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(WebhookSigningError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ name: "WebhookSigningError", code: "ERR_WEBHOOK_SIGNING_INPUT" });
    expect((error as Error).message).toMatch(message);
    expect(isWebhookSigningError(error)).toBe(true);
  });

  it("keeps the serialisation failure as the cause", async () => {
    const error = await signWebhook({ payload: { count: 1n }, secret }).catch((reason: unknown) => reason);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as Error).message).toMatch(/BigInt/);
  });

  it("never carries the secret", async () => {
    const secretText = "whsec_do_not_leak";
    const error = await signWebhook({ payload: 1n, secret: secretText }).catch((reason: unknown) => reason);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
      secretText,
    );
  });

  it.each(bad.filter(([name]) => !/options|getter/.test(name)))(
    "createWebhookRequest and a signer: %s",
    async (_name, options) => {
      const { secret: key, ...input } = options as SignWebhookOptions;
      const attempts = [
        createWebhookRequest("http://localhost/hooks", options as SignWebhookOptions),
        createWebhookSigner({ secret: key }).sign(input),
        createWebhookSigner({ secret: key }).createRequest("http://localhost/hooks", input),
      ];
      for (const attempt of attempts) {
        await expect(attempt).rejects.toMatchObject({ code: "ERR_WEBHOOK_SIGNING_INPUT" });
      }
    },
  );

  it("a signer's own bad options and a bad URL are coded too", async () => {
    await expect(createWebhookSigner(revoked as never).sign({ payload })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_SIGNING_INPUT",
    });
    await expect(createWebhookSigner({ secret }).sign(undefined as never)).rejects.toMatchObject({
      code: "ERR_WEBHOOK_SIGNING_INPUT",
    });
    for (const url of ["not a url", "http://user:hunter2@localhost/hooks"]) {
      const error = await createWebhookRequest(url, { payload, secret }).catch((reason: unknown) => reason);
      expect(error).toMatchObject({ code: "ERR_WEBHOOK_SIGNING_INPUT" });
      expect((error as Error).message).not.toContain("hunter2");
      expect((error as Error).cause).toBeUndefined();
    }
  });
});

describe("isWebhookSigningError", () => {
  it("recognises the error of another realm or copy by name and code", async () => {
    const { runInNewContext } = await import("node:vm");
    const foreign = runInNewContext(
      'Object.assign(new TypeError("x"), { name: "WebhookSigningError", code: "ERR_WEBHOOK_SIGNING_INPUT" })',
    );
    expect(isWebhookSigningError(foreign)).toBe(true);
    expect(isWebhookSigningError(Object.assign(new TypeError("x"), { name: "WebhookSigningError" }))).toBe(
      false,
    );
    expect(isWebhookSigningError({ name: "WebhookSigningError", code: "ERR_WEBHOOK_SIGNING_INPUT" })).toBe(
      false,
    );
  });

  it("returns false, never throws, for anything else", () => {
    const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap });
    for (const value of [revoked, throwing, Object.defineProperty(new Error("x"), "name", { get: trap })]) {
      expect(isWebhookSigningError(value)).toBe(false);
    }
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withTypedArray: true }), (value) => {
        expect(isWebhookSigningError(value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
