import { type ConnectionOptions, type KeepJobs, Queue } from "bullmq";
import { isPlainObject } from "../../internal/isPlainObject.js";
import { MAX_TIMER_MS } from "../../internal/sleep.js";
import type { BullMQDeliveryQueueOptions } from "./BullMQDeliveryQueueOptions.js";

/** Which Redis client the queue was given, as far as the queue must know. */
export type RedisClientKind = "node-redis" | "ioredis" | "ioredis-cluster" | "other";

/** The options of the BullMQ queue with every default filled in and every value checked. */
export interface NormalizedBullMQQueueOptions {
  /** The BullMQ `Queue` the caller gave, if any (never closed by the queue). */
  readonly given: Queue | undefined;
  readonly name: string;
  /** The key prefix; `undefined` leaves BullMQ's own (`"bull"`). */
  readonly prefix: string | undefined;
  /** The caller's client, as BullMQ takes it. */
  readonly connection: ConnectionOptions;
  readonly kind: RedisClientKind;
  /**
   * Whether the client sets ioredis's `maxRetriesPerRequest`, which BullMQ refuses on a worker's
   * blocking connection: the worker then gets a copy of the client without it.
   */
  readonly limitsRetriesPerRequest: boolean;
  readonly lockMs: number;
  readonly stalledIntervalMs: number;
  readonly maxStalledCount: number;
  /** BullMQ's `removeOnFail`: what is kept of dead deliveries (`false` keeps them all). */
  readonly keepDead: KeepJobs | false;
  /** BullMQ's `limiter` (its `duration` in milliseconds), if any. */
  readonly limiter: { readonly max: number; readonly duration: number } | undefined;
  readonly metrics: { readonly maxDataPoints: number } | undefined;
}

const DAY_MS = 24 * 3_600_000;

/** The defaults, in one place. */
export const BULLMQ_QUEUE_DEFAULTS = {
  name: "messaging-events-webhooks",
  lockMs: 30_000,
  stalledIntervalMs: 30_000,
  maxStalledCount: 10,
  /** 10,000 dead deliveries or 30 days, whichever comes first. */
  keepDead: { count: 10_000, ageMs: 30 * DAY_MS },
} as const;

const fail = (message: string): never => {
  throw new TypeError(`createBullMQDeliveryQueue: ${message}`);
};

function wholeNumber(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    return fail(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** A bound that `Infinity` lifts: `undefined` then. */
function bound(name: string, value: unknown, fallback: number, min: number): number | undefined {
  if (value === Number.POSITIVE_INFINITY) return undefined;
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    return fail(`${name} must be a whole number from ${min}, or Infinity`);
  }
  return value;
}

/**
 * The hash tag Redis Cluster would hash a key starting with `head` by: the text between the first
 * `{` and the next `}`, when it is not empty; `undefined` when there is none.
 */
export function hashTagOf(head: string): string | undefined {
  const open = head.indexOf("{");
  if (open < 0) return undefined;
  const close = head.indexOf("}", open + 1);
  return close > open + 1 ? head.slice(open + 1, close) : undefined;
}

const CLIENT_FIX =
  'pass a Redis client: createClient({ url }) from "redis", new Redis(url) from "ioredis", or for Redis Cluster new Cluster(nodes) from "ioredis"';

/** The kind of client `connection` is, or a `TypeError` that says how to pass one BullMQ can use. */
function kindOf(connection: unknown, where: string): RedisClientKind {
  const client = connection as Record<string, unknown> | null;
  const isClient =
    typeof client === "object" &&
    client !== null &&
    ["connect", "disconnect", "duplicate"].every((method) => typeof client[method] === "function");
  if (!isClient) {
    return fail(`${where} must be a Redis client, not connection options: ${CLIENT_FIX}`);
  }
  const options = isPlainObject(client.options) ? client.options : {};
  if (typeof client.defineCommand === "function") {
    const cluster = client.isCluster === true;
    const redisOptions = cluster && isPlainObject(options.redisOptions) ? options.redisOptions : {};
    if (options.keyPrefix || redisOptions.keyPrefix) {
      return fail(
        `${where} is an ioredis client with keyPrefix, which BullMQ cannot use: remove keyPrefix and give the queue a prefix instead`,
      );
    }
    return cluster ? "ioredis-cluster" : "ioredis";
  }
  if ("masters" in client && "slots" in client) {
    return fail(
      `${where} is a node-redis cluster client (createCluster()), which BullMQ cannot drive: pass an ioredis Cluster (new Cluster(nodes) from "ioredis") and a hash-tagged prefix such as "{webhooks}"`,
    );
  }
  if (typeof client.sendCommand === "function" && ("isOpen" in client || "isReady" in client)) {
    return "node-redis";
  }
  return "other";
}

/** Whether an ioredis client sets `maxRetriesPerRequest`, as BullMQ checks it on blocking connections. */
function limitsRetries(connection: unknown, kind: RedisClientKind): boolean {
  if (kind !== "ioredis" && kind !== "ioredis-cluster") return false;
  const options = (connection as { options?: Record<string, unknown> }).options ?? {};
  const redisOptions =
    kind === "ioredis-cluster" ? (options.redisOptions as Record<string, unknown>) : options;
  return Boolean(redisOptions?.maxRetriesPerRequest);
}

/** Checks the options of `createBullMQDeliveryQueue` and fills in the defaults. */
export function normalizeBullMQQueueOptions(
  options: BullMQDeliveryQueueOptions,
): NormalizedBullMQQueueOptions {
  if (typeof options !== "object" || options === null) {
    return fail("options must be an object with connection or queue");
  }
  const given = options.queue;
  if (given !== undefined && !(given instanceof Queue)) fail("queue must be a BullMQ Queue");
  const name = options.name ?? given?.name ?? BULLMQ_QUEUE_DEFAULTS.name;
  if (typeof name !== "string" || !/^[\w.{}-]{1,100}$/.test(name)) {
    fail("name must be 1 to 100 letters, digits, _, ., - or braces (a Redis Cluster hash tag)");
  }
  const prefix = options.prefix ?? given?.opts.prefix;
  if (prefix !== undefined && (typeof prefix !== "string" || !/^[!-~]{1,100}$/.test(prefix))) {
    fail("prefix must be 1 to 100 visible ASCII characters");
  }
  const connection = options.connection ?? given?.opts.connection;
  if (connection === undefined || connection === null) {
    fail(`pass a connection or a BullMQ queue: ${CLIENT_FIX}`);
  }
  const kind = kindOf(connection, options.connection === undefined ? "the queue's connection" : "connection");
  if (kind === "ioredis-cluster" && hashTagOf(`${prefix ?? "bull"}:${name}`) === undefined) {
    fail(
      'on Redis Cluster every key of the queue must hash to one slot: give it a hash-tagged prefix, such as prefix: "{webhooks}"',
    );
  }

  const keepDead = options.keepDead ?? {};
  if (!isPlainObject(keepDead)) fail("keepDead must be an object: { count, ageMs }");
  const count = bound("keepDead.count", keepDead.count, BULLMQ_QUEUE_DEFAULTS.keepDead.count, 0);
  const ageMs = bound("keepDead.ageMs", keepDead.ageMs, BULLMQ_QUEUE_DEFAULTS.keepDead.ageMs, 1);
  // BullMQ counts ages in seconds: round up, so nothing goes sooner than asked.
  const age = ageMs === undefined ? undefined : Math.ceil(ageMs / 1000);
  const keep: KeepJobs | false =
    age !== undefined
      ? count !== undefined
        ? { age, count }
        : { age }
      : count !== undefined
        ? { count }
        : false;

  let limiter: NormalizedBullMQQueueOptions["limiter"];
  if (options.limiter !== undefined) {
    if (!isPlainObject(options.limiter)) fail("limiter must be an object: { max, durationMs }");
    limiter = {
      max: wholeNumber("limiter.max", options.limiter.max, 1, 1_000_000_000),
      duration: wholeNumber("limiter.durationMs", options.limiter.durationMs, 1, MAX_TIMER_MS),
    };
  }
  let metrics: NormalizedBullMQQueueOptions["metrics"];
  if (options.metrics !== undefined) {
    if (!isPlainObject(options.metrics)) fail("metrics must be an object: { maxDataPoints }");
    metrics = {
      maxDataPoints: wholeNumber("metrics.maxDataPoints", options.metrics.maxDataPoints, 1, 1_000_000),
    };
  }

  return {
    given,
    name,
    prefix,
    connection: connection as ConnectionOptions,
    kind,
    limitsRetriesPerRequest: limitsRetries(connection, kind),
    lockMs: wholeNumber("lockMs", options.lockMs ?? BULLMQ_QUEUE_DEFAULTS.lockMs, 1, MAX_TIMER_MS),
    stalledIntervalMs: wholeNumber(
      "stalledIntervalMs",
      options.stalledIntervalMs ?? BULLMQ_QUEUE_DEFAULTS.stalledIntervalMs,
      1,
      MAX_TIMER_MS,
    ),
    maxStalledCount: wholeNumber(
      "maxStalledCount",
      options.maxStalledCount ?? BULLMQ_QUEUE_DEFAULTS.maxStalledCount,
      1,
      1_000_000,
    ),
    keepDead: keep,
    limiter,
    metrics,
  };
}
