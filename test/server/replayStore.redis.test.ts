/**
 * The Redis replay store against a real redis-server: the shared contract, and two connections (as
 * two receiver processes would have) racing on the same values: each value is first exactly once.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookReplayGuard } from "../../src/server/index.js";
import { createRedisReplayStore } from "../../src/server/redis/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { describeReplayStoreContract } from "./replayStoreContract.js";

async function connect(url: string) {
  const client = createClient({ url });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

let server: RedisServer;
const clients: Awaited<ReturnType<typeof connect>>[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  clients.push(await connect(server.url), await connect(server.url));
});

afterAll(async () => {
  for (const client of clients) if (client.isOpen) await client.close();
  await server?.stop();
});

describeReplayStoreContract("Redis replay store", () => createRedisReplayStore({ client: clients[0]! }));

describe("Redis replay store across connections", () => {
  it("two receivers sharing one Redis accept each delivery and each signature once", async () => {
    const guards = clients.map((client) =>
      createWebhookReplayGuard({ store: createRedisReplayStore({ client }) }),
    );
    const ids = Array.from({ length: 50 }, (_, index) => `whd_${index}`);
    const results = await Promise.all(
      ids.flatMap((id) => guards.flatMap((guard) => [guard.acceptDelivery(id), guard.acceptDelivery(id)])),
    );
    expect(results.filter(Boolean)).toHaveLength(50);
    const verified = { signature: "d".repeat(128), timestamp: new Date() };
    const signatures = await Promise.all(guards.map((guard) => guard.acceptSignature(verified)));
    expect(signatures.filter(Boolean)).toHaveLength(1);
    const ttl = Number(
      await clients[0]!.sendCommand(["PTTL", `messaging-events:replay:signature:${"d".repeat(128)}`]),
    );
    expect(ttl).toBeGreaterThan(299_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
    await Promise.all(guards.map((guard) => guard.close()));
  });

  it("rejects with ERR_IDEMPOTENCY_STORE_UNAVAILABLE when the client fails", async () => {
    const store = createRedisReplayStore({
      client: { sendCommand: () => Promise.reject(new Error("down")) },
    });
    await expect(store.rememberOnce("x", Date.now() + 1_000)).rejects.toMatchObject({
      code: "ERR_IDEMPOTENCY_STORE_UNAVAILABLE",
    });
    expect(() => createRedisReplayStore({ client: null as never })).toThrow(TypeError);
  });
});
