/**
 * The BullMQ delivery queue on a real Redis Cluster of three masters, started and stopped by this
 * suite, through ioredis's `Cluster` and a hash-tagged prefix: three worker processes share 1,000
 * events x 3 endpoints and one is killed (SIGKILL) mid-run. Every (event, endpoint) delivery reaches
 * its receiver at least once, verified by the library's verifier; duplicates come only from the
 * crash; every key of the queue sits on one master (the hash tag's). A single-server client on one
 * node fails with a message that names the fix, and a cluster without a hash tag is refused when
 * the queue is created.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBullMQDeliveryQueue } from "../../src/dispatch/bullmq/index.js";
import { createWebhookDispatcher, isDispatchError } from "../../src/dispatch/index.js";
import { type RedisCluster, startRedisCluster } from "../support/redisServer.js";
import { type BullMQWorkerProcess, buildBullMQWorker, startBullMQWorker } from "./bullmqWorkers.js";
import { eventually, type Receiver, startReceiver } from "./receiver.js";

const SECRET = "whsec_bullmq_cluster_suite";
const PREFIX = "{webhooks}";
const outDir = fileURLToPath(new URL("../../.tmp/dispatch-cluster/", import.meta.url));
const script = `${outDir}bullmqWorker.mjs`;
const EVENTS = 1_000;
const CONCURRENCY = 8; // each worker's, in bullmqWorker.ts

let cluster: RedisCluster;
const receivers: Receiver[] = [];
const workers: BullMQWorkerProcess[] = [];

beforeAll(async () => {
  await buildBullMQWorker(script);
  cluster = await startRedisCluster();
});

afterAll(async () => {
  for (const worker of workers) worker.kill();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await cluster?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

function clusterClient(): Cluster {
  const client = new Cluster(cluster.nodes.map(({ port }) => ({ host: "127.0.0.1", port })));
  client.on("error", () => undefined);
  return client;
}

/** The keys under `pattern` on each master, by a plain client on each. */
async function keysPerNode(pattern: string): Promise<string[][]> {
  return Promise.all(
    cluster.nodes.map(async ({ port }) => {
      const node = new Redis({ host: "127.0.0.1", port });
      node.on("error", () => undefined);
      try {
        return await node.keys(pattern);
      } finally {
        node.disconnect();
      }
    }),
  );
}

describe("BullMQ delivery queue on a three-master Redis Cluster", () => {
  it("delivers 1,000 events x 3 endpoints with 3 worker processes, one killed mid-run: 0 lost", async () => {
    const started = Date.now();
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
      CLUSTER_PORTS: JSON.stringify(cluster.nodes.map(({ port }) => port)),
      PREFIX,
      QUEUE_NAME: "cluster-suite",
      ENDPOINTS: JSON.stringify(endpoints),
      SECRET,
      LOCK_MS: "2000",
      STALLED_MS: "1000",
    };
    const three = [0, 1, 2].map(() => startBullMQWorker(script, env));
    workers.push(...three);
    await Promise.all(three.map((worker) => worker.ready));

    // This process only produces, on its own Cluster client.
    const connection = clusterClient();
    const queue = createBullMQDeliveryQueue({ connection, prefix: PREFIX, name: "cluster-suite" });
    const producer = createWebhookDispatcher({
      endpoints: endpoints.map((endpoint) => ({ ...endpoint, secret: [SECRET] })),
      queue,
      deliver: false,
      destinations: { allow: ["127.0.0.1"] },
    });
    // Mid-run, while events are still being dispatched: one worker crashes; the other two take over
    // its deliveries once their locks expire.
    const expected: string[] = [];
    let duplicatesBeforeCrash = -1;
    let deliveredAtCrash = -1;
    let dispatchedAtCrash = -1;
    const crash = eventually(() => delivered.size >= EVENTS, 30_000, "a third of the deliveries").then(() => {
      duplicatesBeforeCrash = [...delivered.values()].filter((count) => count > 1).length;
      deliveredAtCrash = delivered.size;
      dispatchedAtCrash = expected.length;
      three[0]!.kill();
    });
    for (let index = 0; index < EVENTS; index++) {
      const { deliveries } = await producer.dispatch({
        event: { type: "s.message.text", content: { body: `message ${index}` } },
        roomId: "room-1",
      });
      expected.push(...deliveries.map((delivery) => delivery.id));
    }
    expect(new Set(expected).size).toBe(EVENTS * 3);

    await crash;

    await eventually(() => expected.every((id) => delivered.has(id)), 40_000, "every delivery");
    const duplicates = [...delivered.values()].filter((count) => count > 1).length;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `BullMQ on Redis Cluster: ${expected.length} deliveries, ${delivered.size} delivered in ${seconds} s (one worker killed at ${deliveredAtCrash} delivered, ${dispatchedAtCrash} dispatched), ${duplicates} delivered twice (crash), ${invalid} invalid signatures`,
    );
    expect(invalid).toBe(0);
    expect(duplicatesBeforeCrash).toBe(0);
    // Only what the killed worker held can arrive twice.
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
    const expectedIds = new Set(expected);
    expect([...delivered.keys()].every((id) => expectedIds.has(id))).toBe(true);
    expect(await producer.deadDeliveries()).toEqual([]);

    // The hash tag put every key of the queue in one slot, so on one master.
    const keys = await keysPerNode(`${PREFIX}:cluster-suite:*`);
    expect(keys.filter((list) => list.length > 0)).toHaveLength(1);

    for (const worker of three.slice(1)) worker.child.kill("SIGTERM");
    expect(await Promise.all(three.slice(1).map((worker) => worker.exited))).toEqual([0, 0]);
    await producer.close();
    await queue.close();
    await connection.quit();
  });

  it("a single-server client on one node fails with a message that names the fix, not the node", async () => {
    const messages: string[] = [];
    for (const { port } of cluster.nodes) {
      const node = new Redis({ host: "127.0.0.1", port });
      node.on("error", () => undefined);
      const queue = createBullMQDeliveryQueue({ connection: node, prefix: "{single}", name: "wrong-client" });
      await queue
        .add([
          {
            id: `delivery-${port}`,
            eventId: "event",
            endpointId: "acme",
            type: "s.room.close",
            body: "{}",
            createdAt: Date.now(),
          },
        ])
        .catch((error: unknown) => {
          expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_QUEUE_FAILED");
          messages.push((error as Error).message);
        });
      await queue.close();
      node.disconnect();
    }
    // The slot of "{single}" is served by one master: the other two answer MOVED.
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message).toBe(
        'the BullMQ queue failed to store the deliveries: the server is one node of a Redis Cluster: pass an ioredis Cluster (new Cluster(nodes) from "ioredis") and a hash-tagged prefix',
      );
    }
  });

  it("refuses a Cluster client without a hash-tagged prefix when the queue is created", async () => {
    const connection = clusterClient();
    expect(() => createBullMQDeliveryQueue({ connection })).toThrow(
      /on Redis Cluster every key of the queue must hash to one slot: give it a hash-tagged prefix/,
    );
    expect(() => createBullMQDeliveryQueue({ connection, name: "plain", prefix: "bull" })).toThrow(TypeError);
    // A hash tag in the name does as well as one in the prefix.
    const tagged = createBullMQDeliveryQueue({ connection, name: "{tagged}" });
    expect(await tagged.listDead()).toEqual([]);
    await tagged.close();
    await connection.quit();
  });
});
