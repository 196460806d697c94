/**
 * One handler process for the cluster cross-process suite: node:http + createEventsHandler + the
 * Redis store on node-redis's `createCluster()` client, reporting each create on stdout as a JSON
 * line. Configured by the environment: REDIS_CLUSTER_URLS (the root nodes, comma-separated),
 * CREATE_DELAY_MS (how long a create takes). On SIGTERM it closes the server, the handler, the store
 * and the cluster client, and exits by itself: an open handle would keep it alive, and the suite
 * would see it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCluster } from "redis";
import { createEventsHandler, createNodeListener } from "../../src/server/index.js";
import { createRedisIdempotencyStore } from "../../src/server/redis/index.js";

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const rootNodes = (process.env.REDIS_CLUSTER_URLS ?? "")
  .split(",")
  .filter((url) => url !== "")
  .map((url) => ({ url }));
const cluster = createCluster({ rootNodes, defaults: { socket: { connectTimeout: 1_000 } } });
let errors = 0;
cluster.on("error", () => {
  errors++;
});
await cluster.connect();

const store = createRedisIdempotencyStore({ client: cluster, prefix: "processes:" });
const delay = Number(process.env.CREATE_DELAY_MS ?? "0");
let created = 0;
const handler = createEventsHandler({
  store,
  authorize: (request) => (request.headers.get("authorization") === "Bearer test-token" ? "tenant-a" : null),
  create: async ({ idempotencyKey }) => {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
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
  await cluster.close().catch(() => cluster.destroy());
  report({ event: "closed", errors, pid: process.pid });
});
