/**
 * The behaviour every IdempotencyStore keeps, as one suite run against each implementation (memory in
 * `npm test`, Redis in `npm run test:redis`).
 */
import { describe, expect, it } from "vitest";
import type { IdempotencyStore, StoredResponse } from "../../src/server/IdempotencyStore.js";
import { isIdempotencyStoreError } from "../../src/server/IdempotencyStoreError.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG = 60_000;

const response: StoredResponse = {
  status: 201,
  headers: [
    ["content-type", "application/vnd.api+json"],
    ["location", "https://api.example.com/events/01ARZ3NDEKTSV4RRFFQ69G5FAV"],
  ],
  body: '{"data":{"id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","type":"events","attributes":{"body":"Grüße 👋 \\"q\\" \\u0000"}}}',
};

let counter = 0;
/** A fresh (scope, key, token) for each test, so stores can be shared between tests. */
const fresh = (scope = "tenant-a") => ({
  scope,
  key: `key-${++counter}-${Date.now()}`,
  token: `t-${counter}`,
});

export function describeIdempotencyStoreContract(
  name: string,
  open: () => IdempotencyStore | Promise<IdempotencyStore>,
): void {
  describe(`${name}: the IdempotencyStore contract`, () => {
    it("claims a free key once; the same document is in flight, another is a mismatch", async () => {
      const store = await open();
      const ref = fresh();
      expect(await store.claim({ ...ref, fingerprint: "f1", leaseMs: LONG })).toEqual({ status: "claimed" });
      const other = { ...ref, token: "someone-else" };
      expect(await store.claim({ ...other, fingerprint: "f1", leaseMs: LONG })).toEqual({
        status: "in-flight",
      });
      expect(await store.claim({ ...other, fingerprint: "f2", leaseMs: LONG })).toEqual({
        status: "mismatch",
      });
      await store.close();
    });

    it("keeps principals apart, whatever characters scope and key hold", async () => {
      const store = await open();
      const base = fresh();
      const pairs = [
        { scope: "a:b", key: `c-${base.key}` },
        { scope: "a", key: `b:c-${base.key}` },
        { scope: "a:b:c", key: base.key },
        { scope: "😀", key: base.key },
        { scope: "{x}", key: base.key },
      ];
      for (const [index, pair] of pairs.entries()) {
        const claim = { ...pair, token: `t${index}`, fingerprint: "f", leaseMs: LONG };
        expect(await store.claim(claim)).toEqual({ status: "claimed" });
      }
      await store.close();
    });

    it("replays a completed response exactly, for the same document only", async () => {
      const store = await open();
      const ref = fresh();
      await store.claim({ ...ref, fingerprint: "f1", leaseMs: LONG });
      expect(await store.complete(ref, response, LONG)).toBe(true);
      const again = { ...ref, token: "retry" };
      expect(await store.claim({ ...again, fingerprint: "f1", leaseMs: LONG })).toEqual({
        status: "completed",
        response,
      });
      expect(await store.claim({ ...again, fingerprint: "f2", leaseMs: LONG })).toEqual({
        status: "mismatch",
      });
      // A completed record is no longer anyone's claim.
      expect(await store.complete(ref, { ...response, body: "second" }, LONG)).toBe(false);
      expect(await store.release(ref)).toBe(false);
      expect(await store.extend(ref, LONG)).toBe(false);
      await store.close();
    });

    it("frees a released key for the next claim, and only the holder can release it", async () => {
      const store = await open();
      const ref = fresh();
      await store.claim({ ...ref, fingerprint: "f1", leaseMs: LONG });
      expect(await store.release({ ...ref, token: "intruder" })).toBe(false);
      expect(await store.complete({ ...ref, token: "intruder" }, response, LONG)).toBe(false);
      expect(await store.release(ref)).toBe(true);
      expect(await store.claim({ ...ref, token: "next", fingerprint: "f2", leaseMs: LONG })).toEqual({
        status: "claimed",
      });
      await store.close();
    });

    it("lets a lapsed lease be taken over, and refuses every later write of the old holder", async () => {
      const store = await open();
      const old = fresh();
      await store.claim({ ...old, fingerprint: "f1", leaseMs: 60 });
      await sleep(120);
      const next = { ...old, token: "next" };
      expect(await store.claim({ ...next, fingerprint: "f1", leaseMs: LONG })).toEqual({ status: "claimed" });
      expect(await store.extend(old, LONG)).toBe(false);
      expect(await store.complete(old, { ...response, body: "stale" }, LONG)).toBe(false);
      expect(await store.release(old)).toBe(false);
      expect(await store.complete(next, response, LONG)).toBe(true);
      expect(await store.claim({ ...old, token: "third", fingerprint: "f1", leaseMs: LONG })).toEqual({
        status: "completed",
        response,
      });
      await store.close();
    });

    it("keeps an extended lease alive past its first term", async () => {
      const store = await open();
      const ref = fresh();
      await store.claim({ ...ref, fingerprint: "f1", leaseMs: 150 });
      for (let i = 0; i < 4; i++) {
        await sleep(60);
        expect(await store.extend(ref, 150)).toBe(true);
      }
      expect(await store.claim({ ...ref, token: "other", fingerprint: "f1", leaseMs: LONG })).toEqual({
        status: "in-flight",
      });
      await store.close();
    });

    it("forgets a completed record after its retention", async () => {
      const store = await open();
      const ref = fresh();
      await store.claim({ ...ref, fingerprint: "f1", leaseMs: LONG });
      await store.complete(ref, response, 60);
      await sleep(120);
      expect(await store.claim({ ...ref, token: "later", fingerprint: "f2", leaseMs: LONG })).toEqual({
        status: "claimed",
      });
      await store.close();
    });

    it("gives a key to exactly one of 50 concurrent claims", async () => {
      const store = await open();
      const ref = fresh();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          store.claim({ ...ref, token: `c${index}`, fingerprint: "f1", leaseMs: LONG }),
        ),
      );
      expect(results.filter((result) => result.status === "claimed")).toHaveLength(1);
      expect(results.filter((result) => result.status === "in-flight")).toHaveLength(49);
      await store.close();
    });

    it("closes idempotently, and then refuses every call with ERR_IDEMPOTENCY_STORE_CLOSED", async () => {
      const store = await open();
      await store.close();
      await store.close();
      const error = await store
        .claim({ ...fresh(), fingerprint: "f", leaseMs: LONG })
        .catch((e: unknown) => e);
      expect(isIdempotencyStoreError(error)).toBe(true);
      expect((error as { code: string }).code).toBe("ERR_IDEMPOTENCY_STORE_CLOSED");
    });
  });
}
