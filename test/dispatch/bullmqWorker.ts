/**
 * One delivering process for the BullMQ suite: a node-redis client, the BullMQ delivery queue and a
 * dispatcher that delivers (it never dispatches). Configured by the environment: REDIS_URL,
 * QUEUE_NAME, ENDPOINTS (JSON list of { id, url }), SECRET, LOCK_MS, STALLED_MS. It writes "ready"
 * on stdout once its worker is fetching, and one JSON line per attempt. On SIGTERM it closes the
 * dispatcher (attempts in flight finish), the queue and its Redis client, and then exits by itself:
 * a handle left open would keep it alive, and the suite would see it.
 */
import { createClient } from "redis";
import { createBullMQDeliveryQueue } from "../../src/dispatch/bullmq/index.js";
import { createWebhookDispatcher } from "../../src/dispatch/index.js";

const connection = createClient({ url: process.env.REDIS_URL });
connection.on("error", () => undefined);
await connection.connect();

const endpoints = (JSON.parse(process.env.ENDPOINTS ?? "[]") as { id: string; url: string }[]).map(
  (endpoint) => ({
    ...endpoint,
    secret: [process.env.SECRET ?? ""],
  }),
);
const queue = createBullMQDeliveryQueue({
  connection,
  name: process.env.QUEUE_NAME,
  lockMs: Number(process.env.LOCK_MS ?? 2_000),
  stalledIntervalMs: Number(process.env.STALLED_MS ?? 1_000),
});
const dispatcher = createWebhookDispatcher({
  endpoints,
  queue,
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
  await connection.close();
  process.stdout.write("closed\n");
});
process.stdout.write("ready\n");
