/**
 * The one method of a connected node-redis client (the `redis` package, v4 to v6) that the Redis
 * stores call: `sendCommand`. Typed by shape, so this library never imports `redis`; pass the client
 * you created and connected (`createClient({ url })` then `await client.connect()`).
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import type { RedisClientLike } from "messaging-events/server/redis";
 *
 * async function ping(client: RedisClientLike): Promise<unknown> {
 *   return client.sendCommand(["PING"]);
 * }
 * ```
 */
export interface RedisClientLike {
  /** Sends one command (`["SET", key, value, "NX", "PX", "30000"]`) and resolves to its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}
