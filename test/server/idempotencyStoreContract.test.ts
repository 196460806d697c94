import { describe, expect, it } from "vitest";
import { createMemoryIdempotencyStore } from "../../src/server/createMemoryIdempotencyStore.js";
import { describeIdempotencyStoreContract } from "./idempotencyStoreContract.js";

describeIdempotencyStoreContract("memory store", () => createMemoryIdempotencyStore());

describe("memory store bounds", () => {
  it("drops expired records as it goes, then the oldest completed ones, and refuses when all are in flight", async () => {
    let now = 0;
    const store = createMemoryIdempotencyStore({ maxEntries: 3, now: () => now });
    const claim = (key: string, leaseMs = 1_000) =>
      store.claim({ scope: "s", key, token: `t-${key}`, fingerprint: "f", leaseMs });
    const response = { status: 201, headers: [], body: '{"data":{"id":"e1"}}' };
    await claim("a");
    await store.complete({ scope: "s", key: "a", token: "t-a" }, response, 10_000);
    await claim("b", 10);
    await claim("c");
    now = 20; // b's lease lapsed: it makes room
    expect((await claim("d")).status).toBe("claimed");
    // Full with a (completed), c, d: the completed a goes first.
    expect((await claim("e")).status).toBe("claimed");
    // c, d and e are all in flight: nothing may go, so a new claim (a, forgotten) is refused.
    const error = await claim("a").catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("ERR_IDEMPOTENCY_STORE_FULL");
    now = 2_000; // their leases lapse
    expect((await claim("a")).status).toBe("claimed");
    await store.close();
  });

  it("keeps the records within maxBytes, dropping the oldest completed ones first", async () => {
    const store = createMemoryIdempotencyStore({ maxBytes: 10_000 });
    const response = (body: string) => ({ status: 201, headers: [] as [string, string][], body });
    for (const key of ["a", "b"]) {
      const ref = { scope: "s", key, token: `t-${key}` };
      await store.claim({ ...ref, fingerprint: "f", leaseMs: 60_000 });
      expect(await store.complete(ref, response("x".repeat(2_000)), 60_000)).toBe(true);
    }
    // A third 4 kB record does not fit beside a and b: a, the oldest completed one, goes.
    const c = { scope: "s", key: "c", token: "t-c" };
    await store.claim({ ...c, fingerprint: "f", leaseMs: 60_000 });
    expect(await store.complete(c, response("y".repeat(2_000)), 60_000)).toBe(true);
    expect(
      (await store.claim({ scope: "s", key: "a", token: "again", fingerprint: "f", leaseMs: 1 })).status,
    ).toBe("claimed");
    expect(
      (await store.claim({ scope: "s", key: "b", token: "again", fingerprint: "f", leaseMs: 1 })).status,
    ).toBe("completed");
    // A response larger than the whole budget is refused, and the claim stays in flight.
    const d = { scope: "s", key: "d", token: "t-d" };
    await store.claim({ ...d, fingerprint: "f", leaseMs: 60_000 });
    await expect(store.complete(d, response("z".repeat(6_000)), 60_000)).rejects.toMatchObject({
      code: "ERR_IDEMPOTENCY_STORE_FULL",
    });
    expect((await store.claim({ ...d, token: "other", fingerprint: "f", leaseMs: 1 })).status).toBe(
      "in-flight",
    );
    await store.close();
  });

  it("refuses invalid options", () => {
    expect(() => createMemoryIdempotencyStore({ maxBytes: 0 })).toThrow(TypeError);
    expect(() => createMemoryIdempotencyStore({ maxEntries: 0 })).toThrow(TypeError);
    expect(() => createMemoryIdempotencyStore({ maxEntries: 1.5 })).toThrow(TypeError);
    expect(() => createMemoryIdempotencyStore({ now: 5 as never })).toThrow(TypeError);
  });
});
