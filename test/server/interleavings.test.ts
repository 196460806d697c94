/**
 * Random interleavings of claims, completions, releases, crashes, lease renewals and the passing of
 * time, against the memory store on a virtual clock: whatever happens, every answer for one
 * (principal, key) is the same event, byte for byte, and a holder that lost its lease changes nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryIdempotencyStore, type StoredResponse } from "../../src/server/index.js";

const LEASE_MS = 100;
const RETENTION_MS = 1_000_000_000;

type Command =
  | { kind: "claim"; scope: number; key: number; document: number }
  | { kind: "complete" | "release" | "extend" | "crash"; holder: number }
  | { kind: "advance"; ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant("claim" as const),
    scope: fc.nat(1),
    key: fc.nat(2),
    document: fc.nat(1),
  }),
  fc.record({
    kind: fc.constantFrom("complete" as const, "release" as const, "extend" as const, "crash" as const),
    holder: fc.nat(7),
  }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 1, max: 2 * LEASE_MS }) }),
);

interface Holder {
  readonly scope: string;
  readonly key: string;
  readonly token: string;
  readonly document: number;
}

async function run(commands: readonly Command[]) {
  let now = 0;
  const store = createMemoryIdempotencyStore({ now: () => now });
  const holders: Holder[] = [];
  /** Every 201 answered (first or replayed) per (scope, key), and the document it was for. */
  const answers = new Map<string, { body: string; document: number }[]>();
  let tokens = 0;
  let events = 0;
  const answer = (holder: { scope: string; key: string }, body: string, document: number) => {
    const id = `${holder.scope}|${holder.key}`;
    answers.set(id, [...(answers.get(id) ?? []), { body, document }]);
  };
  for (const step of commands) {
    if (step.kind === "advance") {
      now += step.ms;
      continue;
    }
    if (step.kind === "claim") {
      const holder: Holder = {
        scope: `principal-${step.scope}`,
        key: `key-${step.key}`,
        token: `token-${++tokens}`,
        document: step.document,
      };
      const result = await store.claim({ ...holder, fingerprint: `doc-${step.document}`, leaseMs: LEASE_MS });
      if (result.status === "claimed") holders.push(holder);
      if (result.status === "completed") answer(holder, result.response.body, step.document);
      continue;
    }
    const holder = holders[step.holder % Math.max(1, holders.length)];
    if (holder === undefined) continue;
    switch (step.kind) {
      case "complete": {
        const response: StoredResponse = {
          status: 201,
          headers: [["content-type", "application/vnd.api+json"]],
          body: `{"data":{"id":"event-${++events}"},"document":${holder.document}}`,
        };
        if (await store.complete(holder, response, RETENTION_MS))
          answer(holder, response.body, holder.document);
        holders.splice(holders.indexOf(holder), 1);
        break;
      }
      case "release":
        await store.release(holder);
        holders.splice(holders.indexOf(holder), 1);
        break;
      case "extend":
        await store.extend(holder, LEASE_MS);
        break;
      case "crash":
        holders.splice(holders.indexOf(holder), 1);
        break;
    }
  }
  await store.close();
  return answers;
}

describe("memory store under random interleavings", () => {
  it("answers one event per (principal, key), every replay byte-identical, only for the same document", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 60 }), async (commands) => {
        const answers = await run(commands);
        for (const list of answers.values()) {
          expect(new Set(list.map((entry) => entry.body)).size).toBe(1);
          expect(new Set(list.map((entry) => entry.document)).size).toBe(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("lets a stale holder's late complete or release change nothing", async () => {
    let now = 0;
    const store = createMemoryIdempotencyStore({ now: () => now });
    const stale = { scope: "p", key: "k", token: "old" };
    const fresh = { scope: "p", key: "k", token: "new" };
    expect((await store.claim({ ...stale, fingerprint: "f", leaseMs: LEASE_MS })).status).toBe("claimed");
    now += LEASE_MS;
    expect((await store.claim({ ...fresh, fingerprint: "f", leaseMs: LEASE_MS })).status).toBe("claimed");
    expect(await store.extend(stale, LEASE_MS)).toBe(false);
    expect(await store.complete(stale, { status: 201, headers: [], body: "old" }, RETENTION_MS)).toBe(false);
    expect(await store.release(stale)).toBe(false);
    expect(await store.complete(fresh, { status: 201, headers: [], body: "new" }, RETENTION_MS)).toBe(true);
    expect(await store.complete(stale, { status: 201, headers: [], body: "old" }, RETENTION_MS)).toBe(false);
    const replay = await store.claim({ scope: "p", key: "k", token: "third", fingerprint: "f", leaseMs: 1 });
    expect(replay).toEqual({ status: "completed", response: { status: 201, headers: [], body: "new" } });
    await store.close();
  });
});
