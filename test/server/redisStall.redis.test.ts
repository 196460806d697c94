/**
 * A Redis that stalls (the server process stopped, as DEBUG SLEEP or a long fork would) while a
 * create claims its key: the request is answered 503 with Retry-After once `storeTimeoutMs` passes,
 * and the claim command that Redis runs when it wakes is released at once, so a client that obeys
 * the 503 gets its 201 instead of 409 for a whole lease.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsHandler } from "../../src/server/index.js";
import { createRedisIdempotencyStore } from "../../src/server/redis/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { authorize, documentFor, TOKEN } from "./support.js";

let redis: RedisServer;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startRedisServer();
  client = createClient({ url: redis.url });
  client.on("error", () => undefined);
  await client.connect();
});

afterAll(async () => {
  try {
    process.kill(redis.pid, "SIGCONT");
  } catch {
    // Already running, or gone.
  }
  if (client?.isOpen) await client.close();
  await redis?.stop();
});

const post = (key: string) =>
  new Request("http://127.0.0.1/events", {
    method: "POST",
    headers: {
      authorization: TOKEN,
      "content-type": "application/vnd.api+json",
      "service-idempotency-key": key,
    },
    body: JSON.stringify(documentFor("stalled", key)),
  });

describe("a Redis that stalls mid-claim", () => {
  it("answers 503, and the retry the 503 asked for gets its 201 once Redis wakes, not 409 for a lease", async () => {
    let creates = 0;
    const handler = createEventsHandler({
      authorize,
      store: createRedisIdempotencyStore({ client, prefix: "stall:" }),
      storeTimeoutMs: 300,
      create: () => ({ id: `01ARZ3NDEKTSV4RRFFQ69G5FA${++creates}` }),
    });
    process.kill(redis.pid, "SIGSTOP");
    const during = await handler(post("stall-1"));
    expect(during.status).toBe(503);
    const retryAfterMs = Number(during.headers.get("retry-after")) * 1000;
    expect(retryAfterMs).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    process.kill(redis.pid, "SIGCONT");
    const woke = Date.now();
    // The client obeys Retry-After; within it plus a second of Redis waking, the key is free.
    let answer = await handler(post("stall-1"));
    while (answer.status !== 201 && Date.now() - woke < retryAfterMs + 1_000) {
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      answer = await handler(post("stall-1"));
    }
    expect(answer.status).toBe(201);
    expect(creates).toBe(1);
    await handler.close();
  }, 30_000);
});
