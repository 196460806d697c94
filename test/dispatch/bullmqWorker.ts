/**
 * One delivering process for the BullMQ suites: a Redis client, the BullMQ delivery queue and a
 * dispatcher that delivers (it never dispatches). Configured by the environment: REDIS_URL (a
 * node-redis client on one server) or CLUSTER_PORTS (a JSON list of 127.0.0.1 ports: an ioredis
 * Cluster), PREFIX, QUEUE_NAME, ENDPOINTS (JSON list of { id, url }), SECRET, LOCK_MS, STALLED_MS.
 * It writes "ready" on stdout once its worker is fetching, and one JSON line per attempt. On SIGTERM
 * it closes the dispatcher (attempts in flight finish), the queue and its Redis client, and then
 * exits by itself: a handle left open would keep it alive, and the suite would see it.
 */
import { Cluster } from "ioredis";
import { createClient } from "redis";
import {
  type BullMQDeliveryQueueOptions,
  createBullMQDeliveryQueue,
} from "../../src/dispatch/bullmq/index.js";
import { createWebhookDispatcher } from "../../src/dispatch/index.js";

const clusterPorts = process.env.CLUSTER_PORTS;
let connection: BullMQDeliveryQueueOptions["connection"];
let closeConnection: () => Promise<unknown>;
if (clusterPorts === undefined) {
  const client = createClient({ url: process.env.REDIS_URL });
  client.on("error", () => undefined);
  await client.connect();
  connection = client;
  closeConnection = () => client.close();
} else {
  const cluster = new Cluster(
    (JSON.parse(clusterPorts) as number[]).map((port) => ({ host: "127.0.0.1", port })),
  );
  cluster.on("error", () => undefined);
  connection = cluster;
  closeConnection = () => cluster.quit();
}

const endpoints = (JSON.parse(process.env.ENDPOINTS ?? "[]") as { id: string; url: string }[]).map(
  (endpoint) => ({
    ...endpoint,
    secret: [process.env.SECRET ?? ""],
  }),
);
const queue = createBullMQDeliveryQueue({
  connection,
  name: process.env.QUEUE_NAME,
  prefix: process.env.PREFIX,
  lockMs: Number(process.env.LOCK_MS ?? 2_000),
  stalledIntervalMs: Number(process.env.STALLED_MS ?? 1_000),
});
const dispatcher = createWebhookDispatcher({
  endpoints,
  queue,
  destinations: { allow: ["127.0.0.1"] },
  concurrency: 8,
  retry: { delaysMs: [50, 100, 200, 400, 800, 1_600], jitter: 0 },
  timeoutMs: 2_000,
  onAttempt: (attempt) =>
    process.stdout.write(
      `${JSON.stringify({ id: attempt.deliveryId, outcome: attempt.outcome, pid: process.pid })}\n`,
    ),
});

process.once("SIGTERM", async () => {
  await dispatcher.close();
  await queue.close();
  await closeConnection();
  process.stdout.write("closed\n");
});
process.stdout.write("ready\n");
