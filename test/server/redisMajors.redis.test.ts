/**
 * Every major of node-redis the peer range names (4, 5 and 6) drives both Redis stores against a
 * real redis-server: the idempotency store contract, and a webhook receiver that handles a delivery
 * once and retries it after a failure. The stores only send commands (`sendCommand`), which every
 * one of these majors has; this suite is what lets the range say so.
 */
import { createClient as createClient6 } from "redis";
import { createClient as createClient4 } from "redis4";
import { createClient as createClient5 } from "redis5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisIdempotencyStore, type RedisClientLike } from "../../src/server/redis/index.js";
import { createWebhookReceiver, signWebhook } from "../../src/webhooks/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { describeIdempotencyStoreContract } from "./idempotencyStoreContract.js";

type Connected = RedisClientLike & {
  connect(): Promise<unknown>;
  on(event: "error", listener: (error: unknown) => void): unknown;
  readonly isOpen: boolean;
};

const majors: readonly [string, (url: string) => Connected][] = [
  ["4", (url) => createClient4({ url }) as unknown as Connected],
  ["5", (url) => createClient5({ url }) as unknown as Connected],
  ["6", (url) => createClient6({ url }) as unknown as Connected],
];

let server: RedisServer;
const clients = new Map<string, Connected>();

beforeAll(async () => {
  server = await startRedisServer();
  for (const [major, create] of majors) {
    const client = create(server.url);
    client.on("error", () => undefined);
    await client.connect();
    clients.set(major, client);
  }
});

afterAll(async () => {
  for (const client of clients.values()) {
    if (client.isOpen) await (client as unknown as { quit(): Promise<unknown> }).quit();
  }
  await server?.stop();
});

describe.each(majors.map(([major]) => major))("node-redis %s", (major) => {
  const client = () => clients.get(major)!;

  describeIdempotencyStoreContract(`Redis store on node-redis ${major}`, () =>
    createRedisIdempotencyStore({ client: client(), prefix: `v${major}:` }),
  );

  it("a webhook receiver on it handles a delivery once, and again after its handler failed", async () => {
    let runs = 0;
    const receiver = createWebhookReceiver({
      secret: "whsec_majors",
      store: createRedisIdempotencyStore({ client: client(), prefix: `receiver-v${major}:` }),
      on: {
        "s.message.text": () => {
          runs++;
          if (runs === 1) throw new Error("a database blip");
        },
      },
    });
    const send = async () => {
      const signed = await signWebhook({
        payload: { type: "s.message.text", version: 2, content: { body: "hi" } },
        secret: "whsec_majors",
      });
      return (
        await receiver.receive({
          body: signed.body,
          headers: { ...signed.headers, "service-webhook-id": "d-1" },
        })
      ).status;
    };
    expect([await send(), await send(), await send()]).toEqual([500, 204, 204]);
    expect(runs).toBe(2);
    await receiver.close();
  });
});
