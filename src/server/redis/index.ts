export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from "./createRedisIdempotencyStore.js";
export type {
  RedisClientLike,
  RedisClusterClientLike,
  RedisSingleServerClientLike,
} from "./RedisClientLike.js";
