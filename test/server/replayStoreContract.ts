/** The behaviour every ReplayStore keeps, run against each implementation (memory and Redis). */
import { describe, expect, it } from "vitest";
import { isIdempotencyStoreError } from "../../src/server/IdempotencyStoreError.js";
import type { ReplayStore } from "../../src/server/ReplayStore.js";

let counter = 0;
const fresh = () => `value-${++counter}-${Date.now()}`;

export function describeReplayStoreContract(
  name: string,
  open: () => ReplayStore | Promise<ReplayStore>,
): void {
  describe(`${name}: the ReplayStore contract`, () => {
    it("says first once, then remembers until the time given, then forgets", async () => {
      const store = await open();
      const value = fresh();
      expect(await store.rememberOnce(value, Date.now() + 100)).toBe(true);
      expect(await store.rememberOnce(value, Date.now() + 100)).toBe(false);
      expect(await store.rememberOnce(fresh(), Date.now() + 100)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 180));
      expect(await store.rememberOnce(value, Date.now() + 100)).toBe(true);
      await store.close();
    });

    it("remembers nothing for a time already past", async () => {
      const store = await open();
      const value = fresh();
      expect(await store.rememberOnce(value, Date.now() - 1)).toBe(true);
      expect(await store.rememberOnce(value, Date.now() + 60_000)).toBe(true);
      expect(await store.rememberOnce(value, Date.now() + 60_000)).toBe(false);
      await store.close();
    });

    it("tells exactly one of 50 concurrent callers that it is first", async () => {
      const store = await open();
      const value = fresh();
      const results = await Promise.all(
        Array.from({ length: 50 }, () => store.rememberOnce(value, Date.now() + 60_000)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      await store.close();
    });

    it("closes idempotently, then refuses with ERR_IDEMPOTENCY_STORE_CLOSED", async () => {
      const store = await open();
      await store.close();
      await store.close();
      const error = await store.rememberOnce(fresh(), Date.now() + 1_000).catch((caught: unknown) => caught);
      expect(isIdempotencyStoreError(error)).toBe(true);
      expect((error as { code: string }).code).toBe("ERR_IDEMPOTENCY_STORE_CLOSED");
    });
  });
}
