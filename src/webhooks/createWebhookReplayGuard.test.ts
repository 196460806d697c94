/**
 * The replay guard on its own: what each claim finds, what complete and release change, what it
 * refuses before the store is asked, and how a store that fails or does not answer is reported.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createMemoryIdempotencyStore,
  type IdempotencyRecordRef,
  type IdempotencyStore,
} from "../server/index.js";
import {
  createWebhookReplayGuard,
  safeVerifyWebhook,
  signWebhook,
  type WebhookClaim,
  type WebhookReplayGuard,
  type WebhookReplayGuardOptions,
  WebhookVerificationError,
} from "./index.js";

/** A verified result as the guard reads it: 128 hex digits and the end of the window. */
const verified = (n: number, expiresInMs = 60_000) => ({
  signature: n.toString(16).padStart(2, "0").repeat(64),
  expiresAt: new Date(Date.now() + expiresInMs),
});

const guards: WebhookReplayGuard[] = [];
afterEach(async () => {
  await Promise.all(guards.splice(0).map((guard) => guard.close()));
});

function guardWith(options: WebhookReplayGuardOptions = {}): WebhookReplayGuard {
  const guard = createWebhookReplayGuard(options);
  guards.push(guard);
  return guard;
}

/** A memory store whose calls are spied on, with `claim` replaceable per test. */
function spiedStore(clock?: () => number) {
  const memory = createMemoryIdempotencyStore(clock === undefined ? {} : { now: clock });
  const store = {
    claim: vi.fn<IdempotencyStore["claim"]>((claim) => memory.claim(claim)),
    extend: vi.fn<IdempotencyStore["extend"]>((ref, leaseMs) => memory.extend(ref, leaseMs)),
    complete: vi.fn<IdempotencyStore["complete"]>((ref, response, retentionMs) =>
      memory.complete(ref, response, retentionMs),
    ),
    release: vi.fn<IdempotencyStore["release"]>((ref) => memory.release(ref)),
    close: vi.fn<IdempotencyStore["close"]>(() => memory.close()),
  } satisfies IdempotencyStore;
  return store;
}

const claimed = (claim: WebhookClaim) => {
  if (claim.status !== "claimed") throw new Error(`expected a claim, got ${claim.status}`);
  return claim;
};

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe("createWebhookReplayGuard: what a claim finds", () => {
  it("a delivery id is held while claimed, processed once completed, free again once released", async () => {
    const guard = guardWith({ leaseMs: 5_000 });
    const first = claimed(await guard.claim(verified(1), "delivery-1"));
    expect(first.signal.aborted).toBe(false);
    // A retry carries the same id under a new timestamp and signature.
    expect(await guard.claim(verified(2), "delivery-1")).toEqual({
      status: "in-progress",
      retryAfterMs: 5_000,
    });
    expect(await first.complete()).toBe(true);
    expect(await guard.claim(verified(3), "delivery-1")).toEqual({ status: "processed" });

    const failing = claimed(await guard.claim(verified(4), "delivery-2"));
    await failing.release();
    claimed(await guard.claim(verified(5), "delivery-2"));
  });

  it("without a delivery id, an exact replay of a completed signature is replayed; a new signature is a new webhook", async () => {
    const guard = guardWith();
    const first = claimed(await guard.claim(verified(1)));
    expect(await guard.claim(verified(1))).toMatchObject({ status: "in-progress" });
    await first.complete();
    expect(await guard.claim(verified(1))).toEqual({ status: "replayed" });
    claimed(await guard.claim(verified(2)));
  });

  it("complete() after release() is a no-op that returns false and leaves the retry's claim alone", async () => {
    const store = spiedStore();
    const guard = guardWith({ store, leaseMs: 5_000 });
    const stale = claimed(await guard.claim(verified(1), "delivery-1"));
    await stale.release();
    const retry = claimed(await guard.claim(verified(2), "delivery-1"));
    expect(await stale.complete()).toBe(false);
    expect(store.complete).not.toHaveBeenCalled();
    // Still held by the retry, not marked processed by the stale holder.
    expect(await guard.claim(verified(3), "delivery-1")).toMatchObject({ status: "in-progress" });
    expect(await retry.complete()).toBe(true);
    expect(await retry.complete()).toBe(false);
    // Releasing after completing does not undo the completion.
    await retry.release();
    expect(await guard.claim(verified(4), "delivery-1")).toEqual({ status: "processed" });
  });

  it("works on what safeVerifyWebhook resolves to", async () => {
    const secret = "whsec_guard";
    const signed = await signWebhook({
      payload: { type: "s.room.close", version: 2, content: {} },
      secret,
    });
    const result = await safeVerifyWebhook({ ...signed, secret });
    expect(result.success).toBe(true);
    const guard = guardWith();
    await claimed(await guard.claim(result as { signature: string; expiresAt: Date })).complete();
    expect(await guard.claim(result as { signature: string; expiresAt: Date })).toEqual({
      status: "replayed",
    });
  });

  it("of concurrent claims of one delivery, exactly one is claimed", async () => {
    const guard = guardWith();
    const byId = await Promise.all(Array.from({ length: 20 }, (_, i) => guard.claim(verified(i), "same")));
    expect(byId.filter((claim) => claim.status === "claimed")).toHaveLength(1);
    expect(byId.filter((claim) => claim.status === "in-progress")).toHaveLength(19);
    const bySignature = await Promise.all([guard.claim(verified(99)), guard.claim(verified(99))]);
    expect(bySignature.map((claim) => claim.status).sort()).toEqual(["claimed", "in-progress"]);
  });
});

describe("createWebhookReplayGuard: how long a completed delivery is remembered", () => {
  it("a signature until its window ends, not longer; a delivery id for retentionMs", async () => {
    const store = spiedStore();
    const guard = guardWith({ store, retentionMs: 86_400_000 });
    const window = verified(2, 5_000);
    const before = Date.now();
    await claimed(await guard.claim(window)).complete();
    const untilEnd = window.expiresAt.getTime() - before;
    const kept = store.complete.mock.calls.map((call) => call[2]);
    expect(kept.length).toBeGreaterThan(0);
    for (const keptMs of kept) {
      expect(keptMs).toBeGreaterThanOrEqual(untilEnd - 50);
      expect(keptMs).toBeLessThanOrEqual(untilEnd + 1_001);
    }
    store.complete.mockClear();
    await claimed(await guard.claim(verified(1), "delivery-1")).complete();
    expect(store.complete.mock.calls.map((call) => call[2])).toContain(86_400_000);
  });
});

describe("createWebhookReplayGuard: the lease", () => {
  it("a lost lease aborts the signal, and the old holder can no longer complete", async () => {
    let now = 1_000_000;
    const store = spiedStore(() => now);
    const guard = guardWith({ store, leaseMs: 60 });
    const old = claimed(await guard.claim(verified(1), "delivery-1"));
    // The lease runs out (a stalled process) and another request takes the delivery over.
    now += 1_000;
    const takeover = claimed(await guard.claim(verified(2), "delivery-1"));
    await vi.waitFor(() => expect(old.signal.aborted).toBe(true), { timeout: 2_000, interval: 10 });
    expect(String(old.signal.reason)).toMatch(/lost/);
    expect(takeover.signal.aborted).toBe(false);
    expect(await old.complete()).toBe(false);
    expect(await guard.claim(verified(3), "delivery-1")).toMatchObject({ status: "in-progress" });
    expect(await takeover.complete()).toBe(true);
  });

  it("close() aborts the signals of claims held, refuses new claims and leaves a store it was given open", async () => {
    const store = spiedStore();
    const guard = createWebhookReplayGuard({ store });
    const held = claimed(await guard.claim(verified(1), "delivery-1"));
    await guard.close();
    await guard.close();
    expect(held.signal.aborted).toBe(true);
    const error = await rejection(guard.claim(verified(2), "delivery-2"));
    expect(error.code).toBe("ERR_WEBHOOK_STORE_UNAVAILABLE");
    expect(error.status).toBe(503);
    expect(store.close).not.toHaveBeenCalled();
  });
});

describe("createWebhookReplayGuard: refused before the store is asked", () => {
  const hex = "ab".repeat(64);
  const inFuture = new Date(Date.now() + 60_000);
  const trap = new Proxy(
    {},
    {
      get() {
        throw new Error("trap");
      },
    },
  );
  it.each<[string, unknown]>([
    ["null", null],
    ["an empty object", {}],
    ["a short signature", { signature: "abc", expiresAt: inFuture }],
    ["uppercase hex", { signature: hex.toUpperCase(), expiresAt: inFuture }],
    ["base64url", { signature: "q".repeat(86), expiresAt: inFuture }],
    ["an invalid date", { signature: hex, expiresAt: new Date(Number.NaN) }],
    ["a date string", { signature: hex, expiresAt: inFuture.toISOString() }],
    ["epoch milliseconds", { signature: hex, expiresAt: inFuture.getTime() }],
    ["a proxy whose traps throw", trap],
    [
      "a throwing getter",
      Object.defineProperty({ expiresAt: inFuture }, "signature", {
        get() {
          throw new Error("getter");
        },
      }),
    ],
  ])("a verified result that is %s: ERR_WEBHOOK_INVALID_INPUT", async (_name, input) => {
    const store = spiedStore();
    const guard = guardWith({ store });
    const error = await rejection(guard.claim(input as never, "delivery-1"));
    expect(error.code).toBe("ERR_WEBHOOK_INVALID_INPUT");
    expect(error.status).toBe(500);
    expect(store.claim).not.toHaveBeenCalled();
  });

  it.each<[string, unknown]>([
    ["empty", ""],
    ["with a space", "a b"],
    ["with a comma (a repeated header joined)", "a,b"],
    ["257 characters", "x".repeat(257)],
    ["non-ASCII", "caf\u00e9"],
    ["with a line break", "a\nb"],
    ["a number", 42],
  ])("a delivery id %s: ERR_WEBHOOK_ID_INVALID (401)", async (_name, id) => {
    const store = spiedStore();
    const guard = guardWith({ store });
    const error = await rejection(guard.claim(verified(1), id as string));
    expect(error.code).toBe("ERR_WEBHOOK_ID_INVALID");
    expect(error.status).toBe(401);
    expect(store.claim).not.toHaveBeenCalled();
  });

  it("accepts ids of 1 to 256 visible ASCII characters", async () => {
    const guard = guardWith();
    const ids = ["x", "x".repeat(256), "!#$%&'()*+-./:;<=>?@[\\]^_`{|}~", "evt_01J0ABC"];
    for (const [n, id] of ids.entries()) {
      expect((await guard.claim(verified(n), id)).status).toBe("claimed");
    }
  });

  it("refuses invalid options with a TypeError naming the option", () => {
    expect(() => createWebhookReplayGuard({ leaseMs: 0 })).toThrow(/leaseMs/);
    expect(() => createWebhookReplayGuard({ retentionMs: 1.5 })).toThrow(/retentionMs/);
    expect(() => createWebhookReplayGuard({ storeTimeoutMs: -1 })).toThrow(/storeTimeoutMs/);
    expect(() => createWebhookReplayGuard({ store: { claim() {} } as never })).toThrow(TypeError);
    expect(() => createWebhookReplayGuard({ store: { claim() {} } as never })).toThrow(
      /store must implement IdempotencyStore/,
    );
    expect(() => createWebhookReplayGuard(null as never)).toThrow(TypeError);
  });
});

describe("createWebhookReplayGuard: a store that fails is ERR_WEBHOOK_STORE_UNAVAILABLE (503) with its error as cause", () => {
  const down = new Error("ECONNREFUSED 127.0.0.1:6379");

  it.each<
    [string, (store: ReturnType<typeof spiedStore>) => void, (guard: WebhookReplayGuard) => Promise<unknown>]
  >([
    [
      "claim rejects",
      (store) => store.claim.mockRejectedValue(down),
      (guard) => guard.claim(verified(1), "delivery-1"),
    ],
    [
      "claim throws",
      (store) =>
        store.claim.mockImplementation(() => {
          throw down;
        }),
      (guard) => guard.claim(verified(1), "delivery-1"),
    ],
    [
      "complete rejects",
      (store) => store.complete.mockRejectedValue(down),
      async (guard) => claimed(await guard.claim(verified(1), "delivery-1")).complete(),
    ],
    [
      "release rejects",
      (store) => store.release.mockRejectedValue(down),
      async (guard) => claimed(await guard.claim(verified(1), "delivery-1")).release(),
    ],
  ])("%s", async (_name, breakIt, call) => {
    const store = spiedStore();
    breakIt(store);
    const error = await rejection(call(guardWith({ store })));
    expect(error.code).toBe("ERR_WEBHOOK_STORE_UNAVAILABLE");
    expect(error.status).toBe(503);
    expect(error.kind).toBe("unavailable");
    expect(error.cause).toBe(down);
    expect(error.message).not.toContain("6379");
  });

  it("a store holding another kind of record under the key", async () => {
    const store = spiedStore();
    store.claim.mockResolvedValue({ status: "mismatch" });
    const error = await rejection(guardWith({ store }).claim(verified(1), "delivery-1"));
    expect(error.code).toBe("ERR_WEBHOOK_STORE_UNAVAILABLE");
  });

  it("a claim not answered within storeTimeoutMs, which is released when it lands later", async () => {
    const store = spiedStore();
    let land!: () => void;
    store.claim.mockImplementation(
      () =>
        new Promise((resolve) => {
          land = () => resolve({ status: "claimed" });
        }),
    );
    const guard = guardWith({ store, storeTimeoutMs: 30 });
    const started = Date.now();
    const error = await rejection(guard.claim(verified(1), "delivery-1"));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe("ERR_WEBHOOK_STORE_UNAVAILABLE");
    expect(error.message).toMatch(/did not answer in time \(within 30 ms\)/);
    expect(store.release).not.toHaveBeenCalled();
    land();
    await vi.waitFor(() => expect(store.release).toHaveBeenCalledTimes(1));
    const asked = store.claim.mock.calls[0]![0];
    const released: IdempotencyRecordRef = store.release.mock.calls[0]![0];
    expect(released).toEqual({ scope: asked.scope, key: asked.key, token: asked.token });
  });
});
