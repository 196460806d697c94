import { describe, expect, it } from "vitest";
import { describeReplayStoreContract } from "../../test/server/replayStoreContract.js";
import { createMemoryReplayStore } from "./createMemoryReplayStore.js";
import { createWebhookReplayGuard } from "./createWebhookReplayGuard.js";
import type { ReplayStore } from "./ReplayStore.js";

describeReplayStoreContract("memory replay store", () => createMemoryReplayStore());

const signature = (digit: string) => digit.repeat(128);

describe("createWebhookReplayGuard", () => {
  it("accepts a signature once inside its window, and remembers it until the window closes", async () => {
    const remembered: [string, number][] = [];
    const memory = createMemoryReplayStore();
    const store: ReplayStore = {
      rememberOnce: (value, expiresAt) => {
        remembered.push([value, expiresAt]);
        return memory.rememberOnce(value, expiresAt);
      },
      close: () => memory.close(),
    };
    const guard = createWebhookReplayGuard({ store, toleranceSeconds: 300 });
    const timestamp = new Date();
    expect(await guard.acceptSignature({ signature: signature("a"), timestamp })).toBe(true);
    expect(await guard.acceptSignature({ signature: signature("a"), timestamp })).toBe(false);
    expect(await guard.acceptSignature({ signature: signature("b"), timestamp })).toBe(true);
    expect(remembered[0]).toEqual([`signature:${signature("a")}`, timestamp.getTime() + 301_000]);
    await guard.close();
    // The store was passed in: the guard leaves it open.
    expect(await store.rememberOnce("still-open", Date.now() + 1_000)).toBe(true);
    await store.close();
  });

  it("recognises a redelivery by its webhook id, apart from signatures", async () => {
    const guard = createWebhookReplayGuard();
    expect(await guard.acceptDelivery("whd_1")).toBe(true);
    expect(await guard.acceptDelivery("whd_1")).toBe(false);
    expect(await guard.acceptDelivery("whd_2")).toBe(true);
    // A delivery id that looks like a signature is not one.
    expect(await guard.acceptSignature({ signature: signature("c"), timestamp: new Date() })).toBe(true);
    expect(await guard.acceptDelivery(signature("c"))).toBe(true);
    const closing = guard.close();
    expect(guard.close()).toBe(closing);
    await closing;
    await expect(guard.acceptDelivery("whd_3")).rejects.toMatchObject({
      code: "ERR_IDEMPOTENCY_STORE_CLOSED",
    });
  });

  it.each([
    ["an empty id", ""],
    ["an id of 257 characters", "x".repeat(257)],
    ["a number", 42],
  ])("refuses %s as a webhook id", async (_name, id) => {
    const guard = createWebhookReplayGuard();
    await expect(guard.acceptDelivery(id as string)).rejects.toThrow(TypeError);
    await guard.close();
  });

  it.each([
    ["uppercase hex", { signature: "A".repeat(128), timestamp: new Date() }],
    ["a short signature", { signature: "a".repeat(127), timestamp: new Date() }],
    ["an invalid date", { signature: "a".repeat(128), timestamp: new Date(Number.NaN) }],
    ["nothing", undefined],
  ])("refuses %s as a verified signature", async (_name, verified) => {
    const guard = createWebhookReplayGuard();
    await expect(guard.acceptSignature(verified as never)).rejects.toThrow(TypeError);
    await guard.close();
  });

  it("refuses invalid options", () => {
    expect(() => createWebhookReplayGuard({ toleranceSeconds: -1 })).toThrow(TypeError);
    expect(() => createWebhookReplayGuard({ deliveryRetentionMs: 0 })).toThrow(TypeError);
    expect(() => createWebhookReplayGuard({ store: {} as never })).toThrow(TypeError);
  });

  it("refuses to forget a value inside its window when full", async () => {
    const store = createMemoryReplayStore({ maxEntries: 2 });
    await store.rememberOnce("a", Date.now() + 60_000);
    await store.rememberOnce("b", Date.now() + 60_000);
    await expect(store.rememberOnce("c", Date.now() + 60_000)).rejects.toMatchObject({
      code: "ERR_IDEMPOTENCY_STORE_FULL",
    });
    expect(await store.rememberOnce("a", Date.now() + 60_000)).toBe(false);
    await store.close();
  });
});
