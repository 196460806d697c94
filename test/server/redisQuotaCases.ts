/**
 * The Redis store's per-principal quota (`maxRecordsPerScope`), as one suite run on a single server
 * and on a cluster (`npm run test:redis`): a principal at its quota gets a coded error and writes
 * nothing while others still claim; expiry, release and completion keep the count right.
 */
import { describe, expect, it } from "vitest";
import type { IdempotencyStore, StoredResponse } from "../../src/server/IdempotencyStore.js";
import { isIdempotencyStoreError } from "../../src/server/IdempotencyStoreError.js";
import { createRedisIdempotencyStore, type RedisClientLike } from "../../src/server/redis/index.js";
import { toRedisCommandSender } from "../../src/server/redis/toRedisCommandSender.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG = 60_000;
const response: StoredResponse = { status: 201, headers: [], body: "{}" };

let counter = 0;
/** A fresh principal for each test, so tests share a prefix without sharing a quota. */
const freshScope = () => `tenant-${++counter}-${Date.now()}`;

const claimOf = (scope: string, key: string, leaseMs = LONG) => ({
  scope,
  key,
  token: `t-${key}`,
  fingerprint: "f",
  leaseMs,
});

async function quotaError(store: IdempotencyStore, claim: ReturnType<typeof claimOf>): Promise<unknown> {
  return store.claim(claim).then(
    () => undefined,
    (error: unknown) => error,
  );
}

export function describeRedisQuotaCases(name: string, client: () => RedisClientLike, prefix: string): void {
  const open = (maxRecordsPerScope: number) =>
    createRedisIdempotencyStore({ client: client(), prefix, maxRecordsPerScope });
  const send = (key: string, args: string[]) => toRedisCommandSender(client(), "test")(key, args);
  const recordKey = (scope: string, key: string) => `${prefix}{${scope.length}:${scope}}:${key}`;
  const indexKey = (scope: string) => `${prefix}{${scope.length}:${scope}}`;

  describe(`${name}: maxRecordsPerScope`, () => {
    it("refuses a principal's claim past its quota with ERR_IDEMPOTENCY_QUOTA_EXCEEDED, writing nothing, while another principal claims", async () => {
      const store = open(3);
      const [flooder, victim] = [freshScope(), freshScope()];
      expect(await store.claim(claimOf(victim, "pay-42"))).toEqual({ status: "claimed" });
      expect(await store.complete(claimOf(victim, "pay-42"), response, LONG)).toBe(true);
      // Completed records count as well as unfinished claims.
      for (const key of ["a", "b", "c"]) {
        expect(await store.claim(claimOf(flooder, key))).toEqual({ status: "claimed" });
      }
      expect(await store.complete(claimOf(flooder, "a"), response, LONG)).toBe(true);
      for (const key of ["d", "e"]) {
        const error = await quotaError(store, claimOf(flooder, key));
        expect(isIdempotencyStoreError(error)).toBe(true);
        expect(error).toMatchObject({ code: "ERR_IDEMPOTENCY_QUOTA_EXCEEDED" });
        expect((error as Error).message).not.toContain(flooder);
        expect(await send(recordKey(flooder, key), ["EXISTS", recordKey(flooder, key)])).toBe(0);
      }
      expect(await send(indexKey(flooder), ["ZCARD", indexKey(flooder)])).toBe(3);
      // At its quota, the principal's own keys still answer: a replay, a key in flight, a mismatch.
      expect(await store.claim({ ...claimOf(flooder, "a"), token: "retry" })).toEqual({
        status: "completed",
        response,
      });
      expect(await store.claim({ ...claimOf(flooder, "b"), token: "retry" })).toEqual({
        status: "in-flight",
      });
      expect(await store.claim({ ...claimOf(flooder, "c"), fingerprint: "other" })).toEqual({
        status: "mismatch",
      });
      // The other principal is untouched and still claims.
      expect(await store.claim({ ...claimOf(victim, "pay-42"), token: "retry" })).toEqual({
        status: "completed",
        response,
      });
      expect(await store.claim(claimOf(victim, "pay-43"))).toEqual({ status: "claimed" });
      await store.close();
    });

    it("frees quota as records expire, unfinished claims and completed ones", async () => {
      const store = open(2);
      const scope = freshScope();
      expect(await store.claim(claimOf(scope, "claim", 150))).toEqual({ status: "claimed" });
      expect(await store.claim(claimOf(scope, "done"))).toEqual({ status: "claimed" });
      expect(await store.complete(claimOf(scope, "done"), response, 150)).toBe(true);
      expect(await quotaError(store, claimOf(scope, "x"))).toMatchObject({
        code: "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
      });
      await sleep(300);
      expect(await store.claim(claimOf(scope, "x"))).toEqual({ status: "claimed" });
      expect(await store.claim(claimOf(scope, "y"))).toEqual({ status: "claimed" });
      expect(await quotaError(store, claimOf(scope, "z"))).toMatchObject({
        code: "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
      });
      await store.close();
    });

    it("frees quota on release; an extended claim keeps counting past its first lease", async () => {
      const store = open(1);
      const scope = freshScope();
      expect(await store.claim(claimOf(scope, "held", 150))).toEqual({ status: "claimed" });
      expect(await store.extend(claimOf(scope, "held"), LONG)).toBe(true);
      await sleep(300);
      expect(await quotaError(store, claimOf(scope, "next"))).toMatchObject({
        code: "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
      });
      // A release by someone else's token frees nothing.
      expect(await store.release({ ...claimOf(scope, "held"), token: "not-mine" })).toBe(false);
      expect(await quotaError(store, claimOf(scope, "next"))).toMatchObject({
        code: "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
      });
      expect(await store.release(claimOf(scope, "held"))).toBe(true);
      expect(await send(indexKey(scope), ["EXISTS", indexKey(scope)])).toBe(0);
      expect(await store.claim(claimOf(scope, "next"))).toEqual({ status: "claimed" });
      await store.close();
    });

    it("keeps the index no longer than the principal's last record", async () => {
      const store = open(10);
      const scope = freshScope();
      await store.claim(claimOf(scope, "short", 5_000));
      await store.claim(claimOf(scope, "long"));
      await store.complete(claimOf(scope, "long"), response, 600_000);
      const indexTtl = Number(await send(indexKey(scope), ["PTTL", indexKey(scope)]));
      const recordTtl = Number(await send(recordKey(scope, "long"), ["PTTL", recordKey(scope, "long")]));
      expect(indexTtl).toBeGreaterThan(590_000);
      expect(Math.abs(indexTtl - recordTtl)).toBeLessThan(1_000);
      await store.close();
    });
  });
}
