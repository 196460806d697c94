/**
 * The Redis store on a real Redis Cluster of three masters, started and stopped by this suite: the
 * store contract on node-redis's `createCluster()` client (4, 5 and 6), with and without a
 * per-principal quota, records spread over every master (a principal's on one with the quota), a
 * webhook receiver on it, and a single-server client on one node failing with a message that names
 * the fix instead of a random-looking partial outage.
 */
import { createClient, createCluster as createCluster6 } from "redis";
import { createCluster as createCluster4 } from "redis4";
import { createCluster as createCluster5 } from "redis5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isIdempotencyStoreError } from "../../src/server/IdempotencyStoreError.js";
import { createEventsHandler } from "../../src/server/index.js";
import { createRedisIdempotencyStore, type RedisClientLike } from "../../src/server/redis/index.js";
import { createWebhookReceiver, signWebhook } from "../../src/webhooks/index.js";
import { type RedisCluster, startRedisCluster } from "../support/redisServer.js";
import { describeIdempotencyStoreContract } from "./idempotencyStoreContract.js";
import { describeRedisQuotaCases } from "./redisQuotaCases.js";
import { authorize, createHeaders, documentFor } from "./support.js";

type ClusterClient = RedisClientLike & {
  connect(): Promise<unknown>;
  on(event: "error", listener: (error: unknown) => void): unknown;
  quit(): Promise<unknown>;
};

const majors: readonly [string, (rootNodes: { url: string }[]) => ClusterClient][] = [
  ["4", (rootNodes) => createCluster4({ rootNodes }) as unknown as ClusterClient],
  ["5", (rootNodes) => createCluster5({ rootNodes }) as unknown as ClusterClient],
  ["6", (rootNodes) => createCluster6({ rootNodes }) as unknown as ClusterClient],
];

let cluster: RedisCluster;
const clients = new Map<string, ClusterClient>();

/** A plain client on each master, to see where keys landed. */
async function keysPerNode(pattern: string): Promise<string[][]> {
  return Promise.all(
    cluster.nodes.map(async ({ url }) => {
      const node = createClient({ url });
      node.on("error", () => undefined);
      await node.connect();
      try {
        return (await node.sendCommand(["KEYS", pattern])) as string[];
      } finally {
        await node.close();
      }
    }),
  );
}

beforeAll(async () => {
  cluster = await startRedisCluster();
  for (const [major, create] of majors) {
    const client = create(cluster.rootNodes);
    client.on("error", () => undefined);
    await client.connect();
    clients.set(major, client);
  }
});

afterAll(async () => {
  for (const client of clients.values()) await client.quit().catch(() => undefined);
  await cluster?.stop();
});

it("runs three masters, each serving a share of the slots", async () => {
  expect(cluster.nodes).toHaveLength(3);
  const node = createClient({ url: cluster.nodes[0]!.url });
  node.on("error", () => undefined);
  await node.connect();
  const info = String(await node.sendCommand(["CLUSTER", "INFO"]));
  await node.close();
  expect(info).toMatch(/cluster_state:ok/);
  expect(info).toMatch(/cluster_known_nodes:3/);
});

describe.each(majors.map(([major]) => major))("createCluster() of node-redis %s", (major) => {
  const client = () => clients.get(major)!;

  describeIdempotencyStoreContract(`Redis store on a cluster, node-redis ${major}`, () =>
    createRedisIdempotencyStore({ client: client(), prefix: `cluster-v${major}:` }),
  );

  describeIdempotencyStoreContract(
    `Redis store with maxRecordsPerScope on a cluster, node-redis ${major}`,
    () =>
      createRedisIdempotencyStore({
        client: client(),
        prefix: `cluster-quota-v${major}:`,
        maxRecordsPerScope: 1_000,
      }),
  );
  describeRedisQuotaCases(`Redis store on a cluster, node-redis ${major}`, client, `quota-v${major}:`);

  it("with maxRecordsPerScope, keeps a principal's records and index on one master, principals spread", async () => {
    const store = createRedisIdempotencyStore({
      client: client(),
      prefix: `tagged-v${major}:`,
      maxRecordsPerScope: 5,
    });
    for (let tenant = 0; tenant < 12; tenant++) {
      for (let index = 0; index < 3; index++) {
        const ref = { scope: `tenant-${tenant}`, key: `order-${index}`, token: `t${index}` };
        expect(await store.claim({ ...ref, fingerprint: "f", leaseMs: 60_000 })).toEqual({
          status: "claimed",
        });
      }
    }
    const perNode = await keysPerNode(`tagged-v${major}:*`);
    // 3 records and 1 index for each of the 12 principals.
    expect(perNode.flat()).toHaveLength(48);
    for (const keys of perNode) {
      for (const key of keys) {
        const tag = /\{\d+:tenant-\d+\}/.exec(key)?.[0];
        expect(tag).toBeDefined();
        expect(keys.filter((other) => other.includes(tag!))).toHaveLength(4);
      }
    }
    expect(perNode.filter((keys) => keys.length > 0).length).toBeGreaterThan(1);
    await store.close();
  });

  it("spreads records over the masters: one key per command, so no hash tag", async () => {
    const store = createRedisIdempotencyStore({ client: client(), prefix: `spread-v${major}:` });
    for (let index = 0; index < 30; index++) {
      const ref = { scope: "tenant", key: `order-${index}`, token: `t${index}` };
      expect(await store.claim({ ...ref, fingerprint: "f", leaseMs: 60_000 })).toEqual({ status: "claimed" });
      expect(await store.complete(ref, { status: 201, headers: [], body: "{}" }, 60_000)).toBe(true);
    }
    const perNode = await keysPerNode(`spread-v${major}:*`);
    expect(perNode.flat()).toHaveLength(30);
    expect(perNode.filter((keys) => keys.length > 0).length).toBeGreaterThan(1);
    await store.close();
  });

  it("a webhook receiver on it handles each delivery once, and again after its handler failed", async () => {
    const runs = new Map<string, number>();
    const receiver = createWebhookReceiver({
      secret: "whsec_cluster",
      store: createRedisIdempotencyStore({ client: client(), prefix: `receiver-v${major}:` }),
      on: {
        "s.message.text": (_event, context) => {
          const count = (runs.get(context.deliveryId ?? "") ?? 0) + 1;
          runs.set(context.deliveryId ?? "", count);
          if (count === 1) throw new Error("a database blip");
        },
      },
    });
    const send = async (id: string) => {
      const signed = await signWebhook({
        payload: { type: "s.message.text", version: 2, content: { body: `hi ${id}` } },
        secret: "whsec_cluster",
      });
      const receipt = await receiver.receive({
        body: signed.body,
        headers: { ...signed.headers, "service-webhook-id": id },
      });
      return receipt.status;
    };
    const ids = Array.from({ length: 6 }, (_, index) => `delivery-${index}`);
    for (const id of ids) expect([await send(id), await send(id), await send(id)]).toEqual([500, 204, 204]);
    expect([...runs.values()]).toEqual(ids.map(() => 2));
    // The receiver's records are spread over the masters too.
    const perNode = await keysPerNode(`receiver-v${major}:*`);
    expect(perNode.filter((keys) => keys.length > 0).length).toBeGreaterThan(1);
    await receiver.close();
  });
});

it("two handlers, each with its own cluster connection: 1,000 requests over 100 keys create 100 events", async () => {
  let creates = 0;
  const handlers = ["5", "6"].map((major) =>
    createEventsHandler({
      store: createRedisIdempotencyStore({ client: clients.get(major)!, prefix: "handlers:" }),
      authorize,
      create: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { id: `E${++creates}` };
      },
    }),
  );
  const statuses = await Promise.all(
    Array.from({ length: 1_000 }, async (_, index) => {
      const key = `order-${index % 100}`;
      const response = await handlers[index % 2]!(
        new Request("http://localhost/events", {
          method: "POST",
          headers: createHeaders(key),
          body: JSON.stringify(documentFor(`event ${key}`, key)),
        }),
      );
      await response.arrayBuffer();
      return response.status;
    }),
  );
  expect(creates).toBe(100);
  // The others found the key in flight (409) or replayed its answer (201).
  expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
  const perNode = await keysPerNode("handlers:*");
  expect(perNode.flat()).toHaveLength(100);
  expect(perNode.filter((keys) => keys.length > 0).length).toBe(3);
  for (const handler of handlers) await handler.close();
});

it("a single-server client on one cluster node fails with a coded error that says to use createCluster()", async () => {
  const node = createClient({ url: cluster.nodes[0]!.url });
  node.on("error", () => undefined);
  await node.connect();
  const store = createRedisIdempotencyStore({ client: node, prefix: "single:" });
  const outcomes = await Promise.all(
    Array.from({ length: 30 }, (_, index) =>
      store.claim({ scope: "s", key: `k${index}`, token: "t", fingerprint: "f", leaseMs: 60_000 }).then(
        (result) => result.status,
        (error: unknown) => error,
      ),
    ),
  );
  const failures = outcomes.filter((outcome) => outcome !== "claimed");
  // This node serves about a third of the slots: the rest are redirected, and each says why.
  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) {
    expect(isIdempotencyStoreError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "ERR_IDEMPOTENCY_STORE_UNAVAILABLE" });
    expect((failure as Error).message).toMatch(/one node of a Redis Cluster.*createCluster\(\)/);
    expect(String(((failure as Error).cause as Error).message)).toMatch(/^MOVED \d+ 127\.0\.0\.1:\d+/);
  }
  await store.close();
  await node.close();
});
