import type { RedisClientLike, RedisClusterClientLike } from "./RedisClientLike.js";

/**
 * Sends one command that touches `key` (and no other key): to the one server, or, on a cluster, to
 * the master of the key's slot. Never marked read-only, so a cluster never answers from a replica
 * that lags behind its master.
 */
export type RedisCommandSender = (key: string, args: string[]) => Promise<unknown>;

const isCluster = (client: RedisClientLike): client is RedisClusterClientLike =>
  typeof client.getSlotMaster === "function";

// The clients that warned already, so that a client shared by several stores warns once.
const warned = /* @__PURE__ */ new WeakSet<object>();

/**
 * Checks that `client` is a node-redis client of either shape and returns the function that sends
 * its commands. Refuses anything else with a TypeError that names the fix, and warns once per client
 * without an `error` listener: node-redis then throws an unhandled `error` event, which ends the
 * process, when Redis goes away.
 */
export function toRedisCommandSender(client: unknown, caller: string): RedisCommandSender {
  if (
    typeof client !== "object" ||
    client === null ||
    typeof (client as { sendCommand?: unknown }).sendCommand !== "function"
  ) {
    throw new TypeError(
      `${caller}: client must be a connected node-redis client: pass one from createClient() or createCluster() of the redis package (4, 5 or 6), after await client.connect()`,
    );
  }
  // ioredis has a sendCommand too, of another signature (a Command object): refuse it by its own members.
  const { call, status } = client as { call?: unknown; status?: unknown };
  if (typeof call === "function" && typeof status === "string") {
    throw new TypeError(
      `${caller}: client looks like an ioredis client, which this store does not take: pass a connected node-redis client from createClient() or createCluster() of the redis package (4, 5 or 6)`,
    );
  }
  const redis = client as RedisClientLike;
  const listeners = typeof redis.listenerCount === "function" ? redis.listenerCount("error") : undefined;
  if (listeners === 0 && !warned.has(redis)) {
    warned.add(redis);
    console.warn(
      `${caller}: the Redis client has no "error" listener, so node-redis will end the process with an unhandled 'error' event when Redis goes away; add one before creating the store: client.on("error", (error) => console.error("redis", error))`,
    );
  }
  if (isCluster(redis)) return (key, args) => redis.sendCommand(key, false, args);
  return (_key, args) => redis.sendCommand(args);
}

/**
 * Tells whether a failure is a cluster redirection (`MOVED 3999 127.0.0.1:6381` or `ASK …`): a
 * single-server client connected to one node of a Redis Cluster gets one for every key that node
 * does not serve.
 */
export function isClusterRedirection(error: unknown): boolean {
  try {
    return /^(?:MOVED|ASK) \d+ /.test(String((error as { message?: unknown })?.message ?? ""));
  } catch {
    return false;
  }
}
