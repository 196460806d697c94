/**
 * One handler process for the cross-process suites: node:http + createEventsHandler + the Redis
 * store, reporting each create on stdout as a JSON line. Configured by the environment:
 * REDIS_URL, LEASE_MS, CREATE_DELAY_MS (a create that waits; "hang" waits forever), STORE_TIMEOUT_MS.
 * On SIGTERM it closes the server, the handler, the store and its Redis client, and exits by itself:
 * an open handle would keep it alive, and the suite would see it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "redis";
import { createEventsHandler, createNodeListener } from "../../src/server/index.js";
import { createRedisIdempotencyStore } from "../../src/server/redis/index.js";

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const client = createClient({
  url: process.env.REDIS_URL,
  socket: { reconnectStrategy: () => 100, connectTimeout: 1_000 },
});
client.on("error", () => undefined);
await client.connect();

const store = createRedisIdempotencyStore({ client, prefix: "cross:" });
const delay = process.env.CREATE_DELAY_MS ?? "0";
let created = 0;
const handler = createEventsHandler({
  store,
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
  storeTimeoutMs: Number(process.env.STORE_TIMEOUT_MS ?? 500),
  authorize: (request) => (request.headers.get("authorization") === "Bearer test-token" ? "tenant-a" : null),
  create: async ({ idempotencyKey }) => {
    report({ event: "create-started", key: idempotencyKey, pid: process.pid });
    if (delay === "hang") await new Promise(() => undefined);
    else await new Promise((resolve) => setTimeout(resolve, Number(delay)));
    const id = `P${process.pid}N${++created}`;
    report({ event: "created", key: idempotencyKey, id, pid: process.pid });
    return { id };
  },
});

const server = createServer(createNodeListener(handler));
server.listen(0, "127.0.0.1", () => {
  report({ event: "listening", port: (server.address() as AddressInfo).port, pid: process.pid });
});

process.once("SIGTERM", async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await handler.close();
  await store.close();
  if (client.isReady) await client.close();
  else client.destroy();
  report({ event: "closed", pid: process.pid });
});
