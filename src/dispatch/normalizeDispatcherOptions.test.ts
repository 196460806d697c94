import { describe, expect, it } from "vitest";
import { isDispatchError } from "./DispatchError.js";
import { DISPATCHER_DEFAULTS, normalizeDispatcherOptions } from "./normalizeDispatcherOptions.js";
import type { WebhookDispatcherOptions } from "./WebhookDispatcherOptions.js";

const endpoint = { id: "acme", url: "https://acme.example/hooks", secret: ["s3cr3t"] };

describe("normalizeDispatcherOptions", () => {
  it("fills in every default and creates (and owns) a memory queue", async () => {
    const settings = normalizeDispatcherOptions({ endpoints: [endpoint] });
    expect(settings).toMatchObject({
      retry: {
        delaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
        jitter: 0.2,
        maxRetryAfterMs: undefined,
      },
      timeoutMs: 15_000,
      maxPayloadBytes: 1_048_576,
      disableAfterMs: 5 * 24 * 3_600_000,
      concurrency: 10,
      encoding: "base64url",
      deliver: true,
      ownsQueue: true,
    });
    expect(settings.retry).toEqual(DISPATCHER_DEFAULTS.retry);
    const endpoints = await settings.endpoints();
    expect(endpoints.get("acme")).toMatchObject({
      id: "acme",
      url: "https://acme.example/hooks",
      secret: "s3cr3t",
    });
    await settings.queue.close();
  });

  it("takes one secret, or a list whose first (the newest) signs", async () => {
    const one = normalizeDispatcherOptions({ endpoints: [{ ...endpoint, secret: "only" }] });
    expect((await one.endpoints()).get("acme")?.secret).toBe("only");
    const bytes = new Uint8Array([1, 2, 3]);
    const rotating = normalizeDispatcherOptions({ endpoints: [{ ...endpoint, secret: [bytes, "old"] }] });
    expect((await rotating.endpoints()).get("acme")?.secret).toBe(bytes);
    await one.queue.close();
    await rotating.queue.close();
  });

  it("keeps a queue it is given, and does not own it", async () => {
    const own = normalizeDispatcherOptions({ endpoints: [] });
    const settings = normalizeDispatcherOptions({ endpoints: [], queue: own.queue });
    expect(settings.queue).toBe(own.queue);
    expect(settings.ownsQueue).toBe(false);
    await own.queue.close();
  });

  it.each<[string, Partial<WebhookDispatcherOptions>, RegExp]>([
    ["endpoints", { endpoints: "x" as never }, /endpoints must be a list/],
    [
      "retry.delaysMs",
      { retry: { delaysMs: [-1] } },
      /^createWebhookDispatcher: retry\.delaysMs must be a list/,
    ],
    ["retry.delaysMs length", { retry: { delaysMs: Array(101).fill(1) } }, /retry\.delaysMs .* at most 100/],
    ["retry.jitter", { retry: { jitter: 1 } }, /^createWebhookDispatcher: retry\.jitter must be/],
    ["retry.maxRetryAfterMs", { retry: { maxRetryAfterMs: -1 } }, /retry\.maxRetryAfterMs must be/],
    ["retry", { retry: [1_000] as never }, /retry must be an object, not an array/],
    ["timeoutMs", { timeoutMs: 0 }, /timeoutMs must be a whole number/],
    ["maxPayloadBytes", { maxPayloadBytes: 1.5 }, /maxPayloadBytes/],
    ["disableAfterMs", { disableAfterMs: -1 }, /disableAfterMs/],
    ["concurrency", { concurrency: 1001 }, /concurrency/],
    ["encoding", { encoding: "hexa" as never }, /encoding/],
    ["fetch", { fetch: 1 as never }, /fetch must be a function/],
    ["queue", { queue: { add() {} } as never }, /queue must implement DeliveryQueue/],
    ["onAttempt", { onAttempt: "log" as never }, /onAttempt must be a function/],
    ["deliver", { deliver: "yes" as never }, /deliver must be true or false/],
  ])("refuses an invalid %s with a TypeError naming it", (_name, options, message) => {
    expect(() => normalizeDispatcherOptions({ endpoints: [], ...options })).toThrow(message);
  });

  it("accepts Infinity for disableAfterMs (never disable) and no retry delays (one attempt)", async () => {
    const settings = normalizeDispatcherOptions({
      endpoints: [],
      disableAfterMs: Number.POSITIVE_INFINITY,
      retry: { delaysMs: [] },
    });
    expect(settings.disableAfterMs).toBe(Number.POSITIVE_INFINITY);
    expect(settings.retry).toEqual({ delaysMs: [], jitter: 0.2, maxRetryAfterMs: undefined });
    await settings.queue.close();
  });

  it("takes each missing member of retry at the dispatcher's default", async () => {
    const settings = normalizeDispatcherOptions({
      endpoints: [],
      retry: { jitter: 0, maxRetryAfterMs: 60_000 },
    });
    expect(settings.retry).toEqual({
      delaysMs: DISPATCHER_DEFAULTS.retry.delaysMs,
      jitter: 0,
      maxRetryAfterMs: 60_000,
    });
    await settings.queue.close();
  });

  it.each<[string, unknown]>([
    ["an id with a space", { ...endpoint, id: "a b" }],
    ["a non-http URL", { ...endpoint, url: "ftp://acme.example/" }],
    ["a relative URL", { ...endpoint, url: "/hooks" }],
    ["an empty list of secrets", { ...endpoint, secret: [] }],
    ["an empty newest secret", { ...endpoint, secret: [""] }],
    ["a secret that is not text or bytes", { ...endpoint, secret: [42] }],
    [
      "a throwing getter",
      Object.defineProperty({ ...endpoint }, "url", {
        get: () => {
          throw new Error("hunter2");
        },
        enumerable: true,
      }),
    ],
  ])(
    "refuses an endpoint with %s (ERR_DISPATCH_INVALID_ENDPOINT), without echoing secrets or URLs",
    (_name, bad) => {
      let caught: unknown;
      try {
        normalizeDispatcherOptions({ endpoints: [bad as never] });
      } catch (error) {
        caught = error;
      }
      expect(isDispatchError(caught) && caught.code).toBe("ERR_DISPATCH_INVALID_ENDPOINT");
      expect((caught as Error).message).not.toMatch(/s3cr3t|acme\.example|hunter2/);
    },
  );

  it("refuses two endpoints with the same id", () => {
    expect(() => normalizeDispatcherOptions({ endpoints: [endpoint, endpoint] })).toThrow(
      /share the id "acme"/,
    );
  });
});
