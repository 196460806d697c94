/**
 * A node-redis single-server client, from `createClient()` (`redis` 4, 5 or 6), as the Redis stores
 * use it: one `sendCommand(args)`.
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import type { RedisSingleServerClientLike } from "messaging-events/server/redis";
 *
 * const ping = (client: RedisSingleServerClientLike) => client.sendCommand(["PING"]);
 * ```
 */
export interface RedisSingleServerClientLike {
  /** Sends one command (`["SET", key, value, "NX", "PX", "30000"]`) and resolves to its reply. */
  sendCommand(args: string[]): Promise<unknown>;
  /** Absent on a single-server client: its presence marks a cluster client. */
  readonly getSlotMaster?: undefined;
  /** How many `error` listeners the client has (node-redis clients are event emitters). */
  listenerCount?(event: "error"): number;
}

/**
 * A node-redis Redis Cluster client, from `createCluster()` (`redis` 4, 5 or 6), as the Redis stores
 * use it: `sendCommand(firstKey, isReadonly, args)`, which sends the command to the master that holds
 * `firstKey`'s slot and follows `MOVED`, `ASK` and failovers itself.
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import type { RedisClusterClientLike } from "messaging-events/server/redis";
 *
 * const read = (client: RedisClusterClientLike, key: string) => client.sendCommand(key, true, ["GET", key]);
 * ```
 */
export interface RedisClusterClientLike {
  /** Sends one command to the master of `firstKey`'s slot and resolves to its reply. */
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  /** The master of a hash slot; only cluster clients have it, so the stores tell the two shapes apart by it. */
  getSlotMaster(slot: number): unknown;
  /** How many `error` listeners the client has (node-redis clients are event emitters). */
  listenerCount?(event: "error"): number;
}

/**
 * The Redis clients the Redis stores work with: a connected node-redis client (the `redis` package,
 * 4, 5 or 6) from `createClient()` for one server, or from `createCluster()` for a Redis Cluster.
 * Typed by shape, so this library never imports `redis`. Another client (ioredis, a node-redis client
 * connected to one node of a cluster) does not work: the first is refused when the store is created,
 * the second fails its calls with a message that says to use `createCluster()`.
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import type { RedisClientLike } from "messaging-events/server/redis";
 *
 * // The stores route each command by its key: to the one server, or to the key's cluster master.
 * async function get(client: RedisClientLike, key: string): Promise<unknown> {
 *   return typeof client.getSlotMaster === "function"
 *     ? client.sendCommand(key, false, ["GET", key])
 *     : client.sendCommand(["GET", key]);
 * }
 * ```
 */
export type RedisClientLike = RedisSingleServerClientLike | RedisClusterClientLike;
