/** Which clients the Redis stores take: node-redis 4, 5 and 6, single-server and cluster; nothing else. */
import { createClient as createClient6, createCluster as createCluster6 } from "redis";
import { createClient as createClient4, createCluster as createCluster4 } from "redis4";
import { createClient as createClient5, createCluster as createCluster5 } from "redis5";
import { describe, expectTypeOf, it } from "vitest";
import { createRedisIdempotencyStore, type RedisClientLike } from "./index.js";

describe("RedisClientLike", () => {
  it("takes createClient() and createCluster() of node-redis 4, 5 and 6", () => {
    expectTypeOf(createClient4()).toMatchTypeOf<RedisClientLike>();
    expectTypeOf(createClient5()).toMatchTypeOf<RedisClientLike>();
    expectTypeOf(createClient6()).toMatchTypeOf<RedisClientLike>();
    expectTypeOf(createCluster4({ rootNodes: [] })).toMatchTypeOf<RedisClientLike>();
    expectTypeOf(createCluster5({ rootNodes: [] })).toMatchTypeOf<RedisClientLike>();
    expectTypeOf(createCluster6({ rootNodes: [] })).toMatchTypeOf<RedisClientLike>();
    createRedisIdempotencyStore({ client: createCluster6({ rootNodes: [] }) });
  });

  it("refuses other shapes: no sendCommand, or a cluster's sendCommand without getSlotMaster", () => {
    expectTypeOf<{ get(key: string): Promise<string> }>().not.toMatchTypeOf<RedisClientLike>();
    expectTypeOf<{
      sendCommand(firstKey: string, isReadonly: boolean, args: string[]): Promise<unknown>;
    }>().not.toMatchTypeOf<RedisClientLike>();
    // @ts-expect-error a client that is not a node-redis client
    createRedisIdempotencyStore({ client: { send: (args: string[]) => Promise.resolve(args) } });
  });
});
