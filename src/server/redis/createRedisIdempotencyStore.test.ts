/**
 * The Redis store's client handling, without a server: which clients it takes, how it routes a
 * command on a cluster, the warning for a client without an `error` listener, and the message for a
 * single-server client on a cluster node. The Redis suites drive it against real servers.
 */
import { createClient, createCluster } from "redis";
import { describe, expect, it, vi } from "vitest";
import { createRedisIdempotencyStore } from "./index.js";

const claim = { scope: "s", key: "k", token: "t", fingerprint: "f", leaseMs: 1_000 };
const quiet = { listenerCount: () => 1 };
const quietClient = { ...quiet, sendCommand: async () => "OK" };

describe("createRedisIdempotencyStore: clients", () => {
  it("refuses what is not a node-redis client, with a TypeError that names the fix", () => {
    for (const client of [undefined, null, {}, { get: () => undefined }, "redis://127.0.0.1"]) {
      expect(() => createRedisIdempotencyStore({ client } as never)).toThrow(
        /pass one from createClient\(\) or createCluster\(\)/,
      );
    }
    expect(() => createRedisIdempotencyStore(undefined as never)).toThrow(TypeError);
    // ioredis has a sendCommand of another signature.
    const ioredisLike = { sendCommand: () => undefined, call: () => undefined, status: "ready" };
    expect(() => createRedisIdempotencyStore({ client: ioredisLike as never })).toThrow(
      /ioredis.*createClient\(\) or createCluster\(\)/,
    );
  });

  it("sends a single-server client's commands as they are", async () => {
    const sent: unknown[][] = [];
    const client = {
      ...quiet,
      sendCommand: async (...call: unknown[]) => {
        sent.push(call);
        return "OK";
      },
    };
    await createRedisIdempotencyStore({ client, prefix: "p:" }).claim(claim);
    expect(sent).toEqual([[["SET", "p:1:s:k", '["in-flight","t","f"]', "NX", "PX", "1000"]]]);
  });

  it("routes a cluster client's commands and scripts by their one key, never as read-only", async () => {
    const sent: unknown[][] = [];
    const client = {
      ...quiet,
      getSlotMaster: () => undefined,
      sendCommand: async (...call: unknown[]) => {
        sent.push(call);
        return (call[2] as string[])[0] === "SET" ? null : '["in-flight","t","f"]';
      },
    };
    const store = createRedisIdempotencyStore({ client, prefix: "p:" });
    expect(await store.claim(claim)).toEqual({ status: "in-flight" });
    await store.release(claim);
    expect(sent.map(([key, readonly, args]) => [key, readonly, (args as string[])[0]])).toEqual([
      ["p:1:s:k", false, "SET"],
      ["p:1:s:k", false, "GET"],
      ["p:1:s:k", false, "EVALSHA"],
    ]);
    // A script names exactly that key, and no other.
    expect((sent[2]![2] as string[]).slice(2, 4)).toEqual(["1", "p:1:s:k"]);
  });

  it("with maxRecordsPerScope, claims in one script whose record and index share the principal's hash tag", async () => {
    const sent: unknown[][] = [];
    const client = {
      ...quiet,
      getSlotMaster: () => undefined,
      sendCommand: async (...call: unknown[]) => {
        sent.push(call);
        return ["claimed"];
      },
    };
    const store = createRedisIdempotencyStore({ client, prefix: "p:", maxRecordsPerScope: 7 });
    expect(await store.claim(claim)).toEqual({ status: "claimed" });
    const [key, readonly, args] = sent[0] as [string, boolean, string[]];
    expect([key, readonly, args[0]]).toEqual(["p:{1:s}:k", false, "EVALSHA"]);
    expect(args.slice(2)).toEqual(["2", "p:{1:s}:k", "p:{1:s}", '["in-flight","t","f"]', "1000", "7"]);
  });

  it("refuses a maxRecordsPerScope that is not a whole number >= 1 or Infinity, and an empty hash tag in prefix", () => {
    for (const maxRecordsPerScope of [0, -1, 1.5, Number.NaN, "10"]) {
      expect(() =>
        createRedisIdempotencyStore({
          client: quietClient,
          maxRecordsPerScope: maxRecordsPerScope as number,
        }),
      ).toThrow(/maxRecordsPerScope must be a whole number >= 1 or Infinity/);
    }
    expect(() =>
      createRedisIdempotencyStore({ client: quietClient, maxRecordsPerScope: Infinity }),
    ).not.toThrow();
    expect(() =>
      createRedisIdempotencyStore({ client: quietClient, prefix: "a{}:", maxRecordsPerScope: 5 }),
    ).toThrow(/empty hash tag/);
    // Without a quota every command touches one key, so any prefix works.
    expect(() => createRedisIdempotencyStore({ client: quietClient, prefix: "a{}:" })).not.toThrow();
  });

  it("turns MOVED and ASK into ERR_IDEMPOTENCY_STORE_UNAVAILABLE that says to use createCluster()", async () => {
    for (const reply of ["MOVED 3999 127.0.0.1:7001", "ASK 3999 127.0.0.1:7001"]) {
      const client = { ...quiet, sendCommand: () => Promise.reject(new Error(reply)) };
      const error = await createRedisIdempotencyStore({ client })
        .claim(claim)
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "ERR_IDEMPOTENCY_STORE_UNAVAILABLE" });
      expect((error as Error).message).toMatch(/Redis Cluster.*createCluster\(\)/);
      expect(((error as Error).cause as Error).message).toBe(reply);
    }
  });

  it('warns once per client without an "error" listener, and never for one with a listener', () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const single = createClient();
    const cluster = createCluster({ rootNodes: [] });
    createRedisIdempotencyStore({ client: single });
    createRedisIdempotencyStore({ client: single, prefix: "webhooks:" });
    createRedisIdempotencyStore({ client: cluster });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/no "error" listener.*client\.on\("error"/);
    warn.mockClear();
    const listened = createClient();
    listened.on("error", () => undefined);
    createRedisIdempotencyStore({ client: listened });
    // A client that is no event emitter (a test double) has nothing to warn about.
    createRedisIdempotencyStore({ client: { sendCommand: async () => "OK" } });
    expect(warn).not.toHaveBeenCalled();
  });
});
