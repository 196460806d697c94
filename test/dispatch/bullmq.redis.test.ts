/**
 * The BullMQ delivery queue across processes, on a real redis-server: three worker processes share
 * 1,000 events x 3 endpoints; one is killed (SIGKILL) mid-run and the whole set restarted. Every
 * (event, endpoint) delivery reaches its receiver at least once, verified by the library's verifier;
 * duplicates come only from the crash; nothing is lost; closed workers exit by themselves.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBullMQDeliveryQueue } from "../../src/dispatch/bullmq/index.js";
import { createWebhookDispatcher } from "../../src/dispatch/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { type BullMQWorkerProcess, buildBullMQWorker, startBullMQWorker } from "./bullmqWorkers.js";
import { eventually, type Receiver, startReceiver } from "./receiver.js";

const SECRET = "whsec_bullmq_suite";
const outDir = fileURLToPath(new URL("../../.tmp/dispatch/", import.meta.url));
const script = `${outDir}bullmqWorker.mjs`;
const EVENTS = 1_000;

let redis: RedisServer;
const receivers: Receiver[] = [];
const workers: BullMQWorkerProcess[] = [];

beforeAll(async () => {
  await buildBullMQWorker(script);
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const worker of workers) worker.kill();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await redis?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

function startWorker(env: Record<string, string>): BullMQWorkerProcess {
  const worker = startBullMQWorker(script, { REDIS_URL: redis.url, SECRET, ...env });
  workers.push(worker);
  return worker;
}

describe("BullMQ delivery queue across processes", () => {
  it("delivers 1,000 events x 3 endpoints with 3 workers, one killed and all restarted: 0 lost", async () => {
    // Every delivery id a receiver answered 2xx to, with how many times; one in ten fails its first try.
    const delivered = new Map<string, number>();
    const seen = new Set<string>();
    let invalid = 0;
    for (let index = 0; index < 3; index++) {
      receivers.push(
        await startReceiver([SECRET], (request) => {
          if (!request.verified.success) {
            invalid++;
            return { status: 401 };
          }
          const id = String(request.headers["service-webhook-id"]);
          if (!seen.has(id) && id.charCodeAt(0) % 10 === 0) {
            seen.add(id);
            return { status: 503 };
          }
          seen.add(id);
          delivered.set(id, (delivered.get(id) ?? 0) + 1);
          return { status: 204 };
        }),
      );
    }
    const endpoints = receivers.map((receiver, index) => ({ id: `endpoint-${index}`, url: receiver.url }));
    const env = {
      QUEUE_NAME: "suite",
      ENDPOINTS: JSON.stringify(endpoints),
      LOCK_MS: "2000",
      STALLED_MS: "1000",
    };

    const first = [startWorker(env), startWorker(env), startWorker(env)];
    await Promise.all(first.map((worker) => worker.ready));

    // This process only produces.
    const connection = createClient({ url: redis.url });
    connection.on("error", () => undefined);
    await connection.connect();
    const queue = createBullMQDeliveryQueue({ connection, name: "suite" });
    const producer = createWebhookDispatcher({
      endpoints: endpoints.map((endpoint) => ({ ...endpoint, secret: [SECRET] })),
      queue,
      deliver: false,
      destinations: { allow: ["127.0.0.1"] },
    });
    const expected: string[] = [];
    for (let index = 0; index < EVENTS; index++) {
      const { deliveries } = await producer.dispatch({
        event: { type: "s.message.text", content: { body: `message ${index}` } },
        roomId: "room-1",
      });
      expected.push(...deliveries.map((delivery) => delivery.id));
    }
    expect(expected).toHaveLength(EVENTS * 3);
    expect(new Set(expected).size).toBe(EVENTS * 3);

    // Mid-run: a crash, then the whole set restarted.
    await eventually(() => delivered.size >= EVENTS, 30_000, "a third of the deliveries");
    const duplicatesBeforeCrash = [...delivered.values()].filter((count) => count > 1).length;
    first[0]!.child.kill("SIGKILL");
    for (const worker of first.slice(1)) worker.child.kill("SIGTERM");
    // The closed workers exit by themselves: nothing is left open in them.
    expect(await Promise.all(first.slice(1).map((worker) => worker.exited))).toEqual([0, 0]);
    const second = [startWorker(env), startWorker(env), startWorker(env)];
    await Promise.all(second.map((worker) => worker.ready));

    await eventually(() => expected.every((id) => delivered.has(id)), 40_000, "every delivery");
    const duplicates = [...delivered.values()].filter((count) => count > 1).length;
    console.log(
      `BullMQ: ${expected.length} deliveries, ${delivered.size} delivered, ${duplicates} delivered twice (crash), ${invalid} invalid signatures`,
    );
    expect(invalid).toBe(0);
    expect(duplicatesBeforeCrash).toBe(0);
    // Only what the killed worker held (its concurrency, 8) can arrive twice.
    expect(duplicates).toBeLessThanOrEqual(8);
    expect([...delivered.keys()].every((id) => expected.includes(id))).toBe(true);
    expect(await producer.deadDeliveries()).toEqual([]);

    for (const worker of second) worker.child.kill("SIGTERM");
    expect(await Promise.all(second.map((worker) => worker.exited))).toEqual([0, 0, 0]);
    await producer.close();
    await queue.close();
    await connection.close();
  });
});
