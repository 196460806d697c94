import type { Queue } from "bullmq";

/**
 * A Redis client that BullMQ can drive: a node-redis client (`createClient()` from `redis`), an
 * ioredis `Redis`, or, for Redis Cluster, an ioredis `Cluster`. Described by shape, so that this
 * subpath imports neither client package.
 *
 * Exported from `messaging-events/dispatch/bullmq`.
 *
 * @example
 * ```ts
 * import type { BullMQRedisClient } from "messaging-events/dispatch/bullmq";
 * import { createClient } from "redis";
 *
 * const connection: BullMQRedisClient = createClient({ url: "redis://127.0.0.1:6379" });
 * ```
 */
export type BullMQRedisClient = {
  /** Connects (BullMQ calls it on the copies it makes). */
  connect(...args: never[]): unknown;
  /** Disconnects. */
  disconnect(...args: never[]): unknown;
  /** Makes a copy with the same options (BullMQ's worker blocks on a connection of its own). */
  duplicate(...args: never[]): unknown;
};

/**
 * The options of `createBullMQDeliveryQueue`: a Redis client as `connection`, or an existing BullMQ
 * `queue` (whose client the worker then shares).
 *
 * Exported from `messaging-events/dispatch/bullmq`.
 *
 * @example
 * ```ts
 * import type { BullMQDeliveryQueueOptions } from "messaging-events/dispatch/bullmq";
 * import { createClient } from "redis";
 *
 * const options: BullMQDeliveryQueueOptions = {
 *   connection: createClient({ url: "redis://127.0.0.1:6379" }),
 *   name: "webhooks",
 *   lockMs: 60_000,
 *   keepDead: { count: 50_000, ageMs: 7 * 24 * 3_600_000 },
 *   limiter: { max: 100, durationMs: 1_000 },
 * };
 * ```
 */
export interface BullMQDeliveryQueueOptions {
  /**
   * The Redis client, yours (the queue never closes it): a node-redis client (`createClient()`), an
   * ioredis `Redis`, or for Redis Cluster an ioredis `Cluster` with a hash-tagged `prefix` (BullMQ
   * cannot drive node-redis's `createCluster()`). Connection options such as `{ host, port }` are
   * refused: create the client from them.
   */
  readonly connection?: BullMQRedisClient;
  /**
   * An existing BullMQ `Queue` to add deliveries to, instead of `connection` and `name`; its
   * connection must be a client too. Never closed by this queue.
   */
  readonly queue?: Queue;
  /**
   * The BullMQ queue name: letters, digits, `_`, `.`, `-`, and braces for a Redis Cluster hash tag
   * (`"{webhooks}"`).
   * @default "messaging-events-webhooks"
   */
  readonly name?: string;
  /**
   * The Redis key prefix. On Redis Cluster it must hold a hash tag, such as `"{webhooks}"`, so that
   * every key of the queue lands in one slot (or the name must).
   * @default "bull"
   */
  readonly prefix?: string;
  /**
   * How long a worker's lock on a delivery lasts; it is renewed every half of it while the attempt
   * runs. A crashed worker's delivery is handed out again once its lock has expired and a stalled
   * check (every `stalledIntervalMs`) has seen it.
   * @default 30000
   */
  readonly lockMs?: number;
  /**
   * How often workers look for deliveries whose worker died.
   * @default 30000
   */
  readonly stalledIntervalMs?: number;
  /**
   * How many times one delivery may be taken over from a dead worker before it is failed (dead).
   * @default 10
   */
  readonly maxStalledCount?: number;
  /**
   * How many dead deliveries are kept, and for how long: past `count`, or older than `ageMs`
   * (rounded up to whole seconds), whichever comes first, they are removed as further deliveries
   * die (BullMQ removes them then, not on a timer). `Infinity` lifts a bound. Give every process
   * of the queue the same value.
   * @default { count: 10_000, ageMs: 2_592_000_000 }
   */
  readonly keepDead?: {
    /** The most dead deliveries kept (0 keeps none). */
    readonly count?: number;
    /** The longest a dead delivery is kept, in milliseconds. */
    readonly ageMs?: number;
  };
  /**
   * BullMQ's rate limiter, shared by every worker of the queue: at most `max` deliveries handed out
   * per `durationMs`, over all endpoints.
   */
  readonly limiter?: {
    /** The most deliveries handed out in one window. */
    readonly max: number;
    /** The window, in milliseconds. */
    readonly durationMs: number;
  };
  /**
   * BullMQ's metrics: per-minute counts of completed and failed (dead) deliveries, `maxDataPoints`
   * minutes of them, read with a BullMQ `Queue`'s `getMetrics`.
   */
  readonly metrics?: {
    /** How many one-minute data points to keep (20,160 is two weeks). */
    readonly maxDataPoints: number;
  };
}
