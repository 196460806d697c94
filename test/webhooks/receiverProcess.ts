/**
 * One webhook receiver process for receiver.redis.test.ts: node:http + createWebhookReceiver (its
 * `node` listener) on a Redis idempotency store shared with the other processes. Each handler run
 * reports its start and its end on stdout as JSON lines (delivery id, pid, outcome, Date.now()), so
 * the suite can count runs across processes and order them against the answers it got.
 *
 * Configured by the environment: REDIS_URL, SIGNING_SECRET, LEASE_MS. The handler obeys the words
 * of `content.body`:
 * - `slow:<ms>` waits that long before returning;
 * - `fail-once` throws on the first attempt across every process (a Redis INCR counts attempts);
 * - `hang-once` never returns on the first attempt (until its claim is lost or the receiver closes);
 * - `hang` never returns (same).
 * Any other word is a tag. On SIGTERM it closes the server, the receiver and its Redis client and
 * exits by itself: an open handle would keep it alive, and the suite would see it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "redis";
import { createRedisIdempotencyStore } from "../../src/server/redis/index.js";
import { createWebhookReceiver } from "../../src/webhooks/index.js";

const report = (line: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ ...line, pid: process.pid, t: Date.now() })}\n`);

const client = createClient({
  url: process.env.REDIS_URL,
  socket: { reconnectStrategy: () => 100, connectTimeout: 1_000 },
});
client.on("error", (error: unknown) => {
  process.stderr.write(`redis client error: ${String(error)}\n`);
});
await client.connect();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until the claim is lost or the receiver closes (then rejects with the signal's reason). */
const hangUntil = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

const receiver = createWebhookReceiver({
  secret: process.env.SIGNING_SECRET ?? "",
  store: createRedisIdempotencyStore({ client, prefix: "receiver-suite:" }),
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
  on: {
    "s.message.text": async (payload, context) => {
      const id = context.deliveryId ?? `signature:${context.signature}`;
      const body = payload.content.body;
      const words = body.split(" ");
      const counted = words.includes("fail-once") || words.includes("hang-once");
      // Counted across processes, before anything else, so a retry elsewhere sees this attempt.
      const attempt = counted ? await client.incr(`receiver-suite-attempts:${id}`) : undefined;
      report({ event: "start", id, body, attempt });
      try {
        for (const word of words) {
          if (word.startsWith("slow:")) await sleep(Number(word.slice(5)));
          if (word === "fail-once" && attempt === 1) throw new Error("failing the first attempt");
          if (word === "hang" || (word === "hang-once" && attempt === 1)) await hangUntil(context.signal);
        }
      } catch (error) {
        report({ event: "end", id, body, attempt, outcome: "failed" });
        throw error;
      }
      // Reported before returning: the receiver may answer 204 only after this line's time.
      report({ event: "end", id, body, attempt, outcome: "ok" });
    },
  },
  onError: (error, context) => {
    report({ event: "error", id: context.deliveryId, code: error.code, status: context.status });
  },
});

const server = createServer(receiver.node);
server.listen(0, "127.0.0.1", () => {
  report({ event: "listening", port: (server.address() as AddressInfo).port });
});

process.once("SIGTERM", async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await receiver.close();
  if (client.isReady) await client.close();
  else client.destroy();
  report({ event: "closed" });
});
