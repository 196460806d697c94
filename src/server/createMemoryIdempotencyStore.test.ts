import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryIdempotencyStore } from "./createMemoryIdempotencyStore.js";
import type { IdempotencyStore, StoredResponse } from "./IdempotencyStore.js";

const LONG = 60_000;
const DAY = 86_400_000;
const created = (body: string): StoredResponse => ({ status: 201, headers: [], body });

/** Claims and completes one key; the fingerprint is the key's, as a retry of the same document sends. */
async function createOnce(store: IdempotencyStore, scope: string, key: string, body: string): Promise<void> {
  const ref = { scope, key, token: `t-${scope}-${key}` };
  expect(await store.claim({ ...ref, fingerprint: `f-${key}`, leaseMs: LONG })).toEqual({
    status: "claimed",
  });
  expect(await store.complete(ref, created(body), DAY)).toBe(true);
}

/** What a retry of (scope, key) finds: `completed` replays, `claimed` would run `create` a second time. */
async function retry(store: IdempotencyStore, scope: string, key: string): Promise<string> {
  const result = await store.claim({
    scope,
    key,
    token: `retry-${Math.random()}`,
    fingerprint: `f-${key}`,
    leaseMs: LONG,
  });
  return result.status;
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error as { code?: string }).code,
  );

describe("createMemoryIdempotencyStore: per-principal budgets", () => {
  it("large creates from one principal never evict another principal's completed record", async () => {
    // The flood that made a victim's retry create twice, at a small scale: the store holds 40 kB,
    // each principal 10 kB, and one principal sends 40 records of about 8 kB.
    const store = createMemoryIdempotencyStore({ maxBytes: 40_000, maxBytesPerScope: 10_000 });
    await createOnce(store, "tenant-b", "order-7", "b".repeat(1_000));
    await createOnce(store, "tenant-c", "pay-42", "c".repeat(1_000));
    for (let index = 0; index < 40; index++) {
      await createOnce(store, "tenant-a", `bulk-${index}`, "a".repeat(4_000));
    }
    expect(await retry(store, "tenant-c", "pay-42")).toBe("completed");
    expect(await retry(store, "tenant-b", "order-7")).toBe("completed");
    // The flood made room from its own records only: its newest is kept, its oldest went.
    expect(await retry(store, "tenant-a", "bulk-39")).toBe("completed");
    expect(await retry(store, "tenant-a", "bulk-0")).toBe("claimed");
    await store.close();
  });

  it("many small keys from one principal never evict another principal's oldest key", async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 120, maxEntriesPerScope: 30 });
    await createOnce(store, "tenant-b", "oldest", "{}");
    for (let index = 0; index < 150; index++) await createOnce(store, "tenant-a", `k-${index}`, "{}");
    expect(await retry(store, "tenant-b", "oldest")).toBe("completed");
    expect(await retry(store, "tenant-a", "k-149")).toBe("completed");
    expect(await retry(store, "tenant-a", "k-0")).toBe("claimed");
    await store.close();
  });

  it("keeps every record of a principal below its share", async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 100, maxEntriesPerScope: 10 });
    for (let index = 0; index < 10; index++) await createOnce(store, "tenant-a", `k-${index}`, "{}");
    for (let index = 0; index < 10; index++) {
      expect(await retry(store, "tenant-a", `k-${index}`)).toBe("completed");
    }
    await store.close();
  });

  it("refuses a principal whose share is all unfinished claims with ERR_IDEMPOTENCY_QUOTA_EXCEEDED, and no one else", async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 100, maxEntriesPerScope: 2 });
    const claim = (scope: string, key: string) =>
      store.claim({ scope, key, token: `t-${key}`, fingerprint: "f", leaseMs: LONG });
    await claim("tenant-a", "a1");
    await claim("tenant-a", "a2");
    expect(await codeOf(claim("tenant-a", "a3"))).toBe("ERR_IDEMPOTENCY_QUOTA_EXCEEDED");
    expect(await claim("tenant-b", "b1")).toEqual({ status: "claimed" });
    // A finished request frees its principal's share for the next claim.
    await store.complete({ scope: "tenant-a", key: "a1", token: "t-a1" }, created("{}"), DAY);
    expect(await claim("tenant-a", "a3")).toEqual({ status: "claimed" });
    await store.close();
  });

  it("refuses a response larger than the principal's share with ERR_IDEMPOTENCY_QUOTA_EXCEEDED, keeping the claim", async () => {
    const store = createMemoryIdempotencyStore({ maxBytesPerScope: 5_000 });
    const ref = { scope: "tenant-a", key: "big", token: "t" };
    await store.claim({ ...ref, fingerprint: "f", leaseMs: LONG });
    expect(await codeOf(store.complete(ref, created("x".repeat(3_000)), DAY))).toBe(
      "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
    );
    expect(await store.claim({ ...ref, token: "other", fingerprint: "f", leaseMs: LONG })).toEqual({
      status: "in-flight",
    });
    await store.close();
  });

  it("when other principals fill the store, a newcomer's claim fails with ERR_IDEMPOTENCY_STORE_FULL and nothing of theirs goes", async () => {
    let now = 0;
    const store = createMemoryIdempotencyStore({ maxEntries: 4, maxEntriesPerScope: 2, now: () => now });
    await createOnce(store, "tenant-a", "a1", "{}");
    await createOnce(store, "tenant-a", "a2", "{}");
    await createOnce(store, "tenant-b", "b1", "{}");
    await createOnce(store, "tenant-b", "b2", "{}");
    expect(
      await codeOf(
        store.claim({ scope: "tenant-c", key: "c1", token: "t", fingerprint: "f", leaseMs: LONG }),
      ),
    ).toBe("ERR_IDEMPOTENCY_STORE_FULL");
    for (const [scope, key] of [
      ["tenant-a", "a1"],
      ["tenant-a", "a2"],
      ["tenant-b", "b1"],
      ["tenant-b", "b2"],
    ] as const) {
      expect(await retry(store, scope, key)).toBe("completed");
    }
    // A principal with records of its own makes room from its oldest one.
    await createOnce(store, "tenant-a", "a3", "{}");
    expect(await retry(store, "tenant-a", "a1")).toBe("claimed");
    expect(await retry(store, "tenant-b", "b1")).toBe("completed");
    // Expired records go for anyone.
    now = DAY + 1;
    expect(
      await store.claim({ scope: "tenant-c", key: "c1", token: "t", fingerprint: "f", leaseMs: LONG }),
    ).toEqual({
      status: "claimed",
    });
    await store.close();
  });

  it("completes a claim whose response fits its principal's share even when others filled the total", async () => {
    const store = createMemoryIdempotencyStore({ maxBytes: 15_000, maxBytesPerScope: 8_000 });
    const ref = { scope: "tenant-c", key: "pay-42", token: "t" };
    await store.claim({ ...ref, fingerprint: "f-pay-42", leaseMs: LONG });
    for (const scope of ["tenant-a", "tenant-b"]) {
      for (let index = 0; index < 2; index++) await createOnce(store, scope, `k-${index}`, "z".repeat(1_500));
    }
    // About 6 kB more than the store has left; refusing this write would let the claim lapse and a retry create twice.
    expect(await store.complete(ref, created("c".repeat(3_000)), DAY)).toBe(true);
    expect(await retry(store, "tenant-c", "pay-42")).toBe("completed");
    // New claims wait until the total is back under maxBytes.
    expect(
      await codeOf(
        store.claim({ scope: "tenant-d", key: "d1", token: "t", fingerprint: "f", leaseMs: LONG }),
      ),
    ).toBe("ERR_IDEMPOTENCY_STORE_FULL");
    for (const scope of ["tenant-a", "tenant-b"]) expect(await retry(store, scope, "k-0")).toBe("completed");
    await store.close();
  });

  it("refuses invalid per-principal options", () => {
    expect(() => createMemoryIdempotencyStore({ maxEntriesPerScope: 0 })).toThrow(/maxEntriesPerScope/);
    expect(() => createMemoryIdempotencyStore({ maxBytesPerScope: 2.5 })).toThrow(/maxBytesPerScope/);
    expect(() => createMemoryIdempotencyStore({ maxBytesPerScope: Number.NaN })).toThrow(TypeError);
  });
});

type Command =
  | { kind: "claim" | "create"; scope: number; key: number; bodyLength: number }
  | { kind: "complete"; scope: number; key: number; bodyLength: number }
  | { kind: "release"; scope: number; key: number }
  | { kind: "advance"; ms: number };

const SCOPES = ["a", "b", "c"];
const LEASE_MS = 40;
const RETENTION_MS = 1_000;

// Most writes come from one principal, so the others' records have to survive its volume.
const scopeIndex = fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, fc.constant(1), fc.constant(2));
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom("claim" as const, "create" as const),
      scope: scopeIndex,
      key: fc.nat(5),
      bodyLength: fc.nat(700),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("complete" as const),
      scope: scopeIndex,
      key: fc.nat(5),
      bodyLength: fc.nat(700),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("release" as const), scope: scopeIndex, key: fc.nat(5) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.nat(60) }) },
);

describe("createMemoryIdempotencyStore: a principal's records go only for its own writes", () => {
  it("for any interleaving of claims and completions across principals", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 20, maxLength: 120 }), async (commands) => {
        let now = 0;
        const store = createMemoryIdempotencyStore({
          maxEntries: 8,
          maxBytes: 6_000,
          maxEntriesPerScope: 5,
          maxBytesPerScope: 4_000,
          now: () => now,
        });
        // The unfinished claim each (scope, key) holds, and the completed records whose replay is owed:
        // those the principal has not written after (its own writes may make room from them).
        const holders = new Map<string, string>();
        const owed = new Map<string, { scope: string; key: string; expiresAt: number }>();
        let tokens = 0;
        const forget = (scope: string) => {
          for (const [id, record] of owed) if (record.scope === scope) owed.delete(id);
        };
        for (const step of commands) {
          if (step.kind === "advance") {
            now += step.ms;
          } else {
            const scope = SCOPES[step.scope]!;
            const key = `k${step.key}`;
            const id = `${scope}/${key}`;
            if (step.kind === "claim" || step.kind === "create") {
              const token = `t${++tokens}`;
              const result = await store
                .claim({ scope, key, token, fingerprint: `f-${key}`, leaseMs: LEASE_MS })
                .catch(() => undefined);
              // Only a claim that wrote, or tried to, may have made room.
              if (result === undefined || result.status === "claimed") forget(scope);
              if (result?.status === "claimed") holders.set(id, token);
            }
            if (step.kind !== "claim") {
              const token = holders.get(id);
              if (token === undefined) continue;
              const ref = { scope, key, token };
              holders.delete(id);
              forget(scope);
              if (step.kind === "release") {
                await store.release(ref);
              } else if (
                await store
                  .complete(ref, created("x".repeat(step.bodyLength)), RETENTION_MS)
                  .catch(() => false)
              ) {
                owed.set(id, { scope, key, expiresAt: now + RETENTION_MS });
              }
            }
          }
          for (const { scope, key, expiresAt } of owed.values()) {
            if (expiresAt <= now) continue;
            // A record that is there answers without a change to the store.
            const found = await store.claim({
              scope,
              key,
              token: "probe",
              fingerprint: `f-${key}`,
              leaseMs: 1,
            });
            expect(found.status, `${scope}/${key} at ${now}`).toBe("completed");
          }
        }
        await store.close();
      }),
      { numRuns: 300 },
    );
  });
});
