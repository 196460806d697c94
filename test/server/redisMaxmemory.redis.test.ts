/**
 * A Redis at `maxmemory` (policy noeviction) refuses the completing write of a create that already
 * happened: the client still gets its 201, and `onError` tells the operator, with stage "complete",
 * that a retry of this key would create the event again.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsHandler, type EventsHandlerErrorContext } from "../../src/server/index.js";
import { createRedisIdempotencyStore } from "../../src/server/redis/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { authorize, createHeaders, documentFor } from "./support.js";

let redis: RedisServer;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startRedisServer();
  client = createClient({ url: redis.url });
  client.on("error", () => undefined);
  await client.connect();
});

afterAll(async () => {
  if (client?.isOpen) await client.close();
  await redis?.stop();
});

const post = (key: string) =>
  new Request("http://127.0.0.1/events", {
    method: "POST",
    headers: createHeaders(key),
    body: JSON.stringify(documentFor("full", key)),
  });

describe("a Redis at maxmemory", () => {
  it("answers the create's 201 and reports the refused completing write to onError", async () => {
    await client.configSet({ "maxmemory-policy": "noeviction", maxmemory: "0" });
    const reported: { error: unknown; context: EventsHandlerErrorContext }[] = [];
    let creates = 0;
    const handler = createEventsHandler({
      authorize,
      store: createRedisIdempotencyStore({ client, prefix: "oom:" }),
      leaseMs: 1_000,
      // The claim fits; then the application's own data fills Redis past maxmemory before the record is written.
      create: async () => {
        creates++;
        // Meanwhile Redis fills up (other data, another tenant): it is at maxmemory when the record is written.
        const used = Number(/used_memory:(\d+)/.exec(await client.info("memory"))?.[1]);
        await client.configSet({ maxmemory: String(Math.max(1, used - 1024 * 1024)) });
        return { id: `01ARZ3NDEKTSV4RRFFQ69G5FA${creates}` };
      },
      onError: (error, context) => {
        reported.push({ error, context });
      },
    });
    const response = await handler(post("oom-1"));
    expect(response.status).toBe(201);
    expect(reported.map(({ context }) => [context.stage, context.status, context.idempotencyKey])).toEqual([
      ["complete", 201, "oom-1"],
    ]);
    expect(String((reported[0]!.error as { cause?: unknown }).cause ?? reported[0]!.error)).toMatch(/OOM/);
    // Without the record, the key stays claimed until its lease runs out (409), then a retry of the
    // same key runs create again: what the operator was warned of.
    await client.configSet({ maxmemory: "0" });
    expect((await handler(post("oom-1"))).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await handler(post("oom-1"))).status).toBe(201);
    expect(creates).toBe(2);
    await handler.close();
  });
});
