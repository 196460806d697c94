/**
 * The Redis store against a real redis-server: the shared store contract (with and without a
 * per-principal quota), the quota's cases, script-cache flushes, the keys it writes, and a server
 * that goes away and comes back.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsHandler } from "../../src/server/index.js";
import { createRedisIdempotencyStore } from "../../src/server/redis/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { describeIdempotencyStoreContract } from "./idempotencyStoreContract.js";
import { describeRedisQuotaCases } from "./redisQuotaCases.js";
import { createHeaders, documentFor } from "./support.js";

type Client = ReturnType<typeof createClient>;

let server: RedisServer;
let client: Client;

beforeAll(async () => {
  server = await startRedisServer();
  client = createClient({ url: server.url });
  client.on("error", () => undefined);
  await client.connect();
});

afterAll(async () => {
  if (client?.isOpen) await client.close();
  await server?.stop();
});

describeIdempotencyStoreContract("Redis store", () => createRedisIdempotencyStore({ client }));
describeIdempotencyStoreContract("Redis store with maxRecordsPerScope", () =>
  createRedisIdempotencyStore({ client, prefix: "quota-contract:", maxRecordsPerScope: 1_000 }),
);
describeRedisQuotaCases("Redis store", () => client, "quota:");

describe("Redis store specifics", () => {
  it("behind the events handler, a principal past maxRecordsPerScope gets 429 ERR_QUOTA_EXCEEDED, another 201", async () => {
    let creates = 0;
    const handler = createEventsHandler({
      store: createRedisIdempotencyStore({ client, prefix: "quota-handler:", maxRecordsPerScope: 2 }),
      authorize: (request) => request.headers.get("x-tenant"),
      create: async () => ({ id: `E${++creates}` }),
    });
    const post = async (tenant: string, key: string) => {
      const response = await handler(
        new Request("http://localhost/events", {
          method: "POST",
          headers: createHeaders(key, { "x-tenant": tenant }),
          body: JSON.stringify(documentFor(`event ${key}`, key)),
        }),
      );
      return {
        status: response.status,
        body: await response.text(),
        retryAfter: response.headers.get("retry-after"),
      };
    };
    expect((await post("flood", "k1")).status).toBe(201);
    expect((await post("flood", "k2")).status).toBe(201);
    const refused = await post("flood", "k3");
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("ERR_QUOTA_EXCEEDED");
    expect(refused.retryAfter).not.toBeNull();
    // A replay of a key the principal holds still answers, and another principal is untouched.
    expect((await post("flood", "k1")).status).toBe(201);
    expect((await post("quiet", "k1")).status).toBe(201);
    expect(creates).toBe(3);
    await handler.close();
  });

  it("survives SCRIPT FLUSH: the scripts are sent again", async () => {
    const store = createRedisIdempotencyStore({ client, prefix: "flush:" });
    const ref = { scope: "s", key: "k1", token: "t1" };
    await store.claim({ ...ref, fingerprint: "f", leaseMs: 60_000 });
    expect(await store.extend(ref, 60_000)).toBe(true);
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    expect(await store.extend(ref, 60_000)).toBe(true);
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    expect(await store.complete(ref, { status: 201, headers: [], body: "{}" }, 60_000)).toBe(true);
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    const ref2 = { scope: "s", key: "k2", token: "t2" };
    await store.claim({ ...ref2, fingerprint: "f", leaseMs: 60_000 });
    expect(await store.release(ref2)).toBe(true);
    await store.close();
  });

  it("writes under its prefix, with a lease as the key's TTL, and never leaves a claim without one", async () => {
    const store = createRedisIdempotencyStore({ client, prefix: "ttl:" });
    const ref = { scope: "tenant", key: "order-1", token: "t" };
    await store.claim({ ...ref, fingerprint: "f", leaseMs: 30_000 });
    const keys = (await client.sendCommand(["KEYS", "ttl:*"])) as string[];
    expect(keys).toEqual(["ttl:6:tenant:order-1"]);
    const ttl = Number(await client.sendCommand(["PTTL", keys[0]!]));
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    await store.complete(ref, { status: 201, headers: [], body: "{}" }, 86_400_000);
    expect(Number(await client.sendCommand(["PTTL", keys[0]!]))).toBeGreaterThan(86_000_000);
    await store.close();
  });

  it("answers a record it cannot read with ERR_IDEMPOTENCY_STORE_CORRUPT, never as a replay", async () => {
    const store = createRedisIdempotencyStore({ client, prefix: "corrupt:" });
    await client.sendCommand(["SET", "corrupt:1:s:k", "not json"]);
    const error = await store
      .claim({ scope: "s", key: "k", token: "t", fingerprint: "f", leaseMs: 1_000 })
      .catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("ERR_IDEMPOTENCY_STORE_CORRUPT");
    // The scripts leave a record they cannot read alone.
    expect(await store.release({ scope: "s", key: "k", token: "t" })).toBe(false);
    await store.close();
  });

  it("rejects with ERR_IDEMPOTENCY_STORE_UNAVAILABLE when the client fails, without secrets", async () => {
    const store = createRedisIdempotencyStore({
      client: { sendCommand: () => Promise.reject(new Error("connect ECONNREFUSED")) },
    });
    const error = await store
      .claim({ scope: "s", key: "k", token: "t", fingerprint: "f", leaseMs: 1 })
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("ERR_IDEMPOTENCY_STORE_UNAVAILABLE");
    expect((error as Error).cause).toBeInstanceOf(Error);
    await store.close();
  });

  it("refuses a client that is not one", () => {
    expect(() => createRedisIdempotencyStore({ client: {} as never })).toThrow(TypeError);
    expect(() => createRedisIdempotencyStore(undefined as never)).toThrow(TypeError);
  });
});
