import { IdempotencyStoreError } from "../IdempotencyStoreError.js";
import type { ReplayStore } from "../ReplayStore.js";
import type { RedisClientLike } from "./RedisClientLike.js";

/**
 * The options of {@link createRedisReplayStore}.
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import type { RedisReplayStoreOptions } from "messaging-events/server/redis";
 * import { createClient } from "redis";
 *
 * const options: RedisReplayStoreOptions = { client: createClient(), prefix: "webhooks:seen:" };
 * ```
 */
export interface RedisReplayStoreOptions {
  /** A connected node-redis client. The store never connects, quits or closes it: you own it. */
  readonly client: RedisClientLike;
  /**
   * Put before every key the store writes.
   * @default "messaging-events:replay:"
   */
  readonly prefix?: string;
}

/**
 * Creates a {@link ReplayStore} in Redis, shared by every receiver process that uses the same server
 * and prefix: one `SET key 1 NX PX ttl` per value, so of concurrent callers exactly one is first,
 * and Redis forgets the value when its window closes. A failing client rejects with
 * `ERR_IDEMPOTENCY_STORE_UNAVAILABLE`.
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import { createRedisReplayStore } from "messaging-events/server/redis";
 * import { createClient } from "redis";
 *
 * const client = createClient({ url: "redis://127.0.0.1:6379" });
 * // await client.connect(); (the store expects a connected client)
 * const store = createRedisReplayStore({ client, prefix: "webhooks:seen:" });
 * await store.close();
 * ```
 */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const client = options?.client;
  if (typeof client !== "object" || client === null || typeof client.sendCommand !== "function") {
    throw new TypeError("createRedisReplayStore: client must be a connected node-redis client");
  }
  const prefix = options.prefix ?? "messaging-events:replay:";
  if (typeof prefix !== "string") throw new TypeError("createRedisReplayStore: prefix must be a string");
  let closed = false;
  return {
    async rememberOnce(value, expiresAt) {
      if (closed)
        throw new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_CLOSED", "the replay store is closed");
      const ttl = Math.ceil(expiresAt - Date.now());
      if (!(ttl > 0)) return true;
      try {
        return (
          (await client.sendCommand(["SET", `${prefix}${value}`, "1", "NX", "PX", String(ttl)])) === "OK"
        );
      } catch (cause) {
        throw new IdempotencyStoreError(
          "ERR_IDEMPOTENCY_STORE_UNAVAILABLE",
          "the Redis replay store failed",
          {
            cause,
          },
        );
      }
    },
    async close() {
      closed = true;
    },
  };
}
