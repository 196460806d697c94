export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from "./createRedisIdempotencyStore.js";
export { createRedisReplayStore, type RedisReplayStoreOptions } from "./createRedisReplayStore.js";
export type { RedisClientLike } from "./RedisClientLike.js";
