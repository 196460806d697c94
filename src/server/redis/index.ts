export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from "./createRedisIdempotencyStore.js";
export type { RedisClientLike } from "./RedisClientLike.js";
