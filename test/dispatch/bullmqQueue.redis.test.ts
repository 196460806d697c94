/**
 * The BullMQ delivery queue's contract on a real redis-server, driven by hand as the dispatcher
 * drives it: dead deliveries kept as `keepDead` says (by count, by age), `defer` that counts no
 * attempt and is due at its time, `dead` with what the endpoint answered, BullMQ's rate limiter and
 * metrics, an ioredis client with its default `maxRetriesPerRequest`, and failures that say what to
 * do without repeating the connection URL.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBullMQDeliveryQueue } from "../../src/dispatch/bullmq/index.js";
import type { DeliveryLease, DeliveryQueue, QueuedDelivery } from "../../src/dispatch/index.js";
import { createWebhookDispatcher, type DeliveryAttempt, isDispatchError } from "../../src/dispatch/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { eventually, startReceiver } from "./receiver.js";

let redis: RedisServer;
let queueNumber = 0;
const opened: { readonly queue: DeliveryQueue; readonly connection: { close(): Promise<unknown> } }[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});

afterEach(async () => {
  for (const { queue, connection } of opened.splice(0)) {
    await queue.close();
    await connection.close();
  }
});

afterAll(async () => {
  await redis?.stop();
});

/** A queue of its own, on a client of its own, for each test. */
async function newQueue(options: Omit<Parameters<typeof createBullMQDeliveryQueue>[0], "connection"> = {}) {
  const connection = createClient({ url: redis.url });
  connection.on("error", () => undefined);
  await connection.connect();
  const name = `queue-${++queueNumber}`;
  const queue = createBullMQDeliveryQueue({ connection, name, lockMs: 5_000, ...options });
  opened.push({ queue, connection });
  return { queue, name, connection };
}

function delivery(index: number): QueuedDelivery {
  return {
    id: `delivery-${queueNumber}-${index}`,
    eventId: `event-${index}`,
    endpointId: "acme",
    type: "s.room.close",
    body: "{}",
    createdAt: Date.now(),
  };
}

async function take(queue: DeliveryQueue, timeoutMs = 5_000): Promise<DeliveryLease> {
  const lease = await queue.take({ signal: AbortSignal.timeout(timeoutMs) });
  if (lease === undefined) throw new Error(`nothing was handed out in ${timeoutMs} ms`);
  return lease;
}

describe("dead deliveries kept as keepDead says", () => {
  it("removes those past the count, the oldest first", async () => {
    const { queue } = await newQueue({ keepDead: { count: 3 } });
    await queue.add([0, 1, 2, 3, 4].map(delivery));
    for (let index = 0; index < 5; index++) await queue.dead(await take(queue), `failed ${index}`);
    const dead = await queue.listDead();
    expect(dead).toHaveLength(3);
    expect(dead.map((item) => item.reason).sort()).toEqual(["failed 2", "failed 3", "failed 4"]);
  });

  it("hands BullMQ the age bound: a dead delivery older than ageMs goes when the next one dies", async () => {
    const { queue } = await newQueue({ keepDead: { ageMs: 1_000 } });
    await queue.add([0, 1].map(delivery));
    await queue.dead(await take(queue), "first");
    expect((await queue.listDead()).map((item) => item.reason)).toEqual(["first"]);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await queue.dead(await take(queue), "second");
    expect((await queue.listDead()).map((item) => item.reason)).toEqual(["second"]);
  });

  it("keeps 10,000 by default, more than the ten here", async () => {
    const { queue } = await newQueue();
    await queue.add(Array.from({ length: 10 }, (_, index) => delivery(index)));
    for (let index = 0; index < 10; index++) await queue.dead(await take(queue), "gone");
    expect(await queue.listDead()).toHaveLength(10);
  });
});

describe("defer and dead", () => {
  it("defer gives a lease back without counting an attempt, due at dueAt and not before", async () => {
    const { queue } = await newQueue();
    await queue.add([delivery(0)]);
    const first = await take(queue);
    expect(first.attempts).toBe(0);
    await queue.retry(first, Date.now(), "503");
    const second = await take(queue);
    expect(second.attempts).toBe(1);

    const dueAt = Date.now() + 600;
    await queue.defer(second, dueAt);
    // Not due at once: a taker that gives up before dueAt gets nothing.
    expect(await queue.take({ signal: AbortSignal.timeout(300) })).toBeUndefined();
    const third = await take(queue);
    expect(Date.now()).toBeGreaterThanOrEqual(dueAt - 5);
    expect(third.attempts).toBe(1);
    expect(third.delivery).toEqual(second.delivery);
    await queue.defer(third, Date.now() - 1_000);
    const fourth = await take(queue);
    expect(fourth.attempts).toBe(1);
    await queue.complete(fourth);
  });

  it("dead keeps what the endpoint last answered, listDead returns it, and a later death without one clears it", async () => {
    const { queue } = await newQueue();
    await queue.add([delivery(0), delivery(1)]);
    const lastResponse = { status: 500, body: '{"error":"database unavailable"}' };
    const leases = [await take(queue), await take(queue)];
    await queue.dead(leases[0]!, "retries exhausted", lastResponse);
    await queue.dead(leases[1]!, "the endpoint is no longer configured");
    const dead = await queue.listDead();
    const answered = dead.find((item) => item.id === leases[0]!.delivery.id);
    expect(answered).toMatchObject({ reason: "retries exhausted", attempts: 1, lastResponse });
    expect(dead.find((item) => item.id === leases[1]!.delivery.id)).not.toHaveProperty("lastResponse");

    expect(await queue.replay(leases[0]!.delivery.id)).toBe(true);
    const again = await take(queue);
    expect(again.delivery).toEqual(leases[0]!.delivery);
    expect(again.attempts).toBe(0);
    await queue.dead(again, "gone");
    const relisted = (await queue.listDead()).find((item) => item.id === again.delivery.id);
    expect(relisted).toMatchObject({ reason: "gone" });
    expect(relisted).not.toHaveProperty("lastResponse");

    await expect(queue.dead(again, "x", { status: "500" } as never)).rejects.toThrow(TypeError);
  });
});

describe("BullMQ's worker options", () => {
  it("the rate limiter hands out at most max per durationMs, over all endpoints", async () => {
    const { queue } = await newQueue({ limiter: { max: 2, durationMs: 500 } });
    await queue.add([0, 1, 2, 3, 4, 5].map(delivery));
    const started = Date.now();
    for (let index = 0; index < 6; index++) await queue.complete(await take(queue));
    // Two now, two after 500 ms, two after 1,000 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("metrics count the deliveries done, for BullMQ's getMetrics", async () => {
    const { queue, name, connection } = await newQueue({ metrics: { maxDataPoints: 10 } });
    await queue.add([0, 1, 2].map(delivery));
    for (let index = 0; index < 3; index++) await queue.complete(await take(queue));
    const reader = new Queue(name, { connection });
    const metrics = await reader.getMetrics("completed");
    await reader.close();
    expect(metrics.meta.count).toBe(3);
  });
});

describe("clients", () => {
  it("an ioredis client with its default maxRetriesPerRequest delivers (the worker uses a copy without it)", async () => {
    const ioredis = new Redis(redis.url);
    ioredis.on("error", () => undefined);
    const queue = createBullMQDeliveryQueue({ connection: ioredis, name: `queue-${++queueNumber}` });
    await queue.add([delivery(0)]);
    const lease = await take(queue);
    await queue.complete(lease);
    await queue.close();
    expect(ioredis.status).toBe("ready"); // yours: never closed by the queue
    await ioredis.quit();
  });

  it("a failure says what failed and what to do, never the connection URL", async () => {
    const url = `redis://default:@127.0.0.1:${redis.port}/0`;
    const closing = createClient({ url });
    closing.on("error", () => undefined);
    await closing.connect();
    const queue = createBullMQDeliveryQueue({ connection: closing, name: `queue-${++queueNumber}` });
    await queue.add([delivery(0)]);
    await closing.close();
    const error = await queue.add([delivery(1)]).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isDispatchError(error)).toBe(true);
    expect(error).toMatchObject({ code: "ERR_DISPATCH_QUEUE_FAILED" });
    expect((error as Error).message).toMatch(
      /^the BullMQ queue failed to store the deliveries: Redis could not be reached, or the client is closed/,
    );
    expect((error as Error).message).not.toContain(String(redis.port));
    expect((error as Error).cause).toBeDefined();
    await queue.close();
  });
});

describe("with the dispatcher", () => {
  it("a rate-limited endpoint's deliveries are deferred, not attempted: each is sent on its first attempt", async () => {
    const { queue } = await newQueue();
    const receiver = await startReceiver(["whsec_rate"]);
    const attempts: DeliveryAttempt[] = [];
    const dispatcher = createWebhookDispatcher({
      endpoints: [{ id: "slow", url: receiver.url, secret: "whsec_rate", ratePerSecond: 5 }],
      queue,
      destinations: { allow: ["127.0.0.1"] },
      onAttempt: (attempt) => attempts.push(attempt),
    });
    const started = Date.now();
    for (let index = 0; index < 10; index++) {
      await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    }
    await eventually(() => attempts.length >= 10, 10_000, "ten attempts");
    expect(attempts.map((attempt) => [attempt.outcome, attempt.attempt])).toEqual(
      Array.from({ length: 10 }, () => ["delivered", 1]),
    );
    // Five a second, starting with a full bucket: the last ones wait about a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(receiver.requests).toHaveLength(10);
    await dispatcher.close();
    await receiver.close();
  });

  it("a dead delivery keeps what the endpoint last answered", async () => {
    const { queue } = await newQueue();
    const receiver = await startReceiver(["whsec_dead"], () => ({ status: 500 }));
    const dispatcher = createWebhookDispatcher({
      endpoints: [{ id: "failing", url: receiver.url, secret: "whsec_dead" }],
      queue,
      destinations: { allow: ["127.0.0.1"] },
      retry: { delaysMs: [] },
    });
    const { deliveries } = await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    let dead = await dispatcher.deadDeliveries();
    for (const deadline = Date.now() + 10_000; dead.length === 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      dead = await dispatcher.deadDeliveries();
    }
    expect(dead[0]).toMatchObject({
      id: deliveries[0]!.id,
      attempts: 1,
      lastResponse: { status: 500, body: "ok" },
    });
    await dispatcher.close();
    await receiver.close();
  });
});
