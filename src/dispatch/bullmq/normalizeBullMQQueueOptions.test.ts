import { Cluster, Redis } from "ioredis";
import { createClient, createCluster } from "redis";
import { describe, expect, it } from "vitest";
import type { BullMQDeliveryQueueOptions } from "./BullMQDeliveryQueueOptions.js";
import { createBullMQDeliveryQueue } from "./createBullMQDeliveryQueue.js";
import {
  BULLMQ_QUEUE_DEFAULTS,
  hashTagOf,
  normalizeBullMQQueueOptions,
} from "./normalizeBullMQQueueOptions.js";

// Clients that never connect: the checks run when the queue is created, before any command.
const nodeRedis = createClient({ url: "redis://127.0.0.1:1" });
const ioredis = new Redis({ lazyConnect: true, maxRetriesPerRequest: null });
const ioredisCluster = new Cluster([{ host: "127.0.0.1", port: 1 }], { lazyConnect: true });

const refused = (options: unknown) => {
  try {
    createBullMQDeliveryQueue(options as BullMQDeliveryQueueOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  throw new Error("the queue was created");
};

describe("normalizeBullMQQueueOptions", () => {
  it("fills in every default: 10,000 dead deliveries or 30 days, whichever comes first", () => {
    const settings = normalizeBullMQQueueOptions({ connection: nodeRedis });
    expect(settings).toMatchObject({
      name: "messaging-events-webhooks",
      prefix: undefined,
      kind: "node-redis",
      limitsRetriesPerRequest: false,
      lockMs: 30_000,
      stalledIntervalMs: 30_000,
      maxStalledCount: 10,
      keepDead: { count: 10_000, age: 30 * 24 * 3_600 },
      limiter: undefined,
      metrics: undefined,
    });
    expect(BULLMQ_QUEUE_DEFAULTS.keepDead).toEqual({ count: 10_000, ageMs: 2_592_000_000 });
  });

  it("takes each bound of keepDead on its own, in BullMQ's seconds rounded up; Infinity lifts one", () => {
    const keep = (keepDead: BullMQDeliveryQueueOptions["keepDead"]) =>
      normalizeBullMQQueueOptions({ connection: nodeRedis, keepDead }).keepDead;
    expect(keep({ count: 5 })).toEqual({ count: 5, age: 2_592_000 });
    expect(keep({ ageMs: 1_500 })).toEqual({ count: 10_000, age: 2 });
    expect(keep({ count: 0, ageMs: 1 })).toEqual({ count: 0, age: 1 });
    expect(keep({ ageMs: Number.POSITIVE_INFINITY })).toEqual({ count: 10_000 });
    expect(keep({ count: Number.POSITIVE_INFINITY })).toEqual({ age: 2_592_000 });
    expect(keep({ count: Number.POSITIVE_INFINITY, ageMs: Number.POSITIVE_INFINITY })).toBe(false);
  });

  it("passes BullMQ's rate limiter (duration in milliseconds) and metrics through", () => {
    const settings = normalizeBullMQQueueOptions({
      connection: nodeRedis,
      limiter: { max: 10, durationMs: 1_000 },
      metrics: { maxDataPoints: 60 },
    });
    expect(settings.limiter).toEqual({ max: 10, duration: 1_000 });
    expect(settings.metrics).toEqual({ maxDataPoints: 60 });
  });

  it("refuses values it cannot use, naming the option", () => {
    const cases: [Partial<BullMQDeliveryQueueOptions>, RegExp][] = [
      [{ keepDead: { count: -1 } }, /keepDead\.count must be a whole number from 0, or Infinity/],
      [{ keepDead: { ageMs: 0 } }, /keepDead\.ageMs must be a whole number from 1/],
      [{ keepDead: 5 as never }, /keepDead must be an object/],
      [{ limiter: { max: 0, durationMs: 1_000 } }, /limiter\.max must be a whole number from 1/],
      [{ limiter: { max: 1 } as never }, /limiter\.durationMs must be a whole number/],
      [{ metrics: {} as never }, /metrics\.maxDataPoints must be a whole number/],
      [{ lockMs: 0 }, /lockMs must be a whole number from 1/],
      [{ name: "a:b" }, /name must be 1 to 100 letters/],
      [{ prefix: "with space" }, /prefix must be 1 to 100 visible ASCII characters/],
    ];
    for (const [options, message] of cases) {
      expect(refused({ connection: nodeRedis, ...options })).toMatch(message);
    }
  });

  it("refuses connection options when the queue is created, naming the clients to pass instead", () => {
    for (const connection of [
      { host: "127.0.0.1", port: 6379 },
      { url: "redis://user:hunter2@redis.internal:6379" },
    ]) {
      const message = refused({ connection });
      expect(message).toMatch(/connection must be a Redis client, not connection options/);
      expect(message).toMatch(
        /createClient\(\{ url \}\) from "redis".*new Redis\(url\) from "ioredis".*new Cluster/,
      );
      expect(message).not.toMatch(/hunter2|redis\.internal/);
    }
    expect(refused({})).toMatch(/pass a connection or a BullMQ queue/);
    expect(refused(null)).toMatch(/options must be an object/);
  });

  it("refuses what BullMQ cannot drive: node-redis's createCluster() and ioredis's keyPrefix", () => {
    const cluster = createCluster({ rootNodes: [{ url: "redis://127.0.0.1:1" }] });
    expect(refused({ connection: cluster, prefix: "{webhooks}" })).toMatch(
      /node-redis cluster client \(createCluster\(\)\), which BullMQ cannot drive: pass an ioredis Cluster/,
    );
    const prefixed = new Redis({ lazyConnect: true, keyPrefix: "app:" });
    expect(refused({ connection: prefixed })).toMatch(/keyPrefix, which BullMQ cannot use/);
  });

  it("tells the kind of client, and whether the worker needs a copy without maxRetriesPerRequest", () => {
    expect(normalizeBullMQQueueOptions({ connection: ioredis })).toMatchObject({
      kind: "ioredis",
      limitsRetriesPerRequest: false,
    });
    // ioredis's own default (20) is refused by BullMQ's worker: the queue copies the client without it.
    const defaults = new Redis({ lazyConnect: true });
    expect(normalizeBullMQQueueOptions({ connection: defaults }).limitsRetriesPerRequest).toBe(true);
    expect(normalizeBullMQQueueOptions({ connection: ioredisCluster, prefix: "{webhooks}" }).kind).toBe(
      "ioredis-cluster",
    );
  });

  it("requires a hash tag on Redis Cluster, in the prefix or the name", () => {
    expect(refused({ connection: ioredisCluster })).toMatch(
      /on Redis Cluster every key of the queue must hash to one slot: give it a hash-tagged prefix, such as prefix: "\{webhooks\}"/,
    );
    expect(refused({ connection: ioredisCluster, prefix: "{}" })).toMatch(/hash-tagged prefix/);
    expect(refused({ connection: ioredisCluster, prefix: "bull}{" })).toMatch(/hash-tagged prefix/);
    expect(normalizeBullMQQueueOptions({ connection: ioredisCluster, prefix: "app:{webhooks}" }).prefix).toBe(
      "app:{webhooks}",
    );
    expect(normalizeBullMQQueueOptions({ connection: ioredisCluster, name: "{webhooks}" }).name).toBe(
      "{webhooks}",
    );
  });
});

describe("hashTagOf", () => {
  it("reads the hash tag as Redis Cluster does: the first {, the next }, not empty", () => {
    expect(hashTagOf("{webhooks}:queue")).toBe("webhooks");
    expect(hashTagOf("bull:{a}{b}")).toBe("a");
    expect(hashTagOf("bull:{}{b}")).toBeUndefined();
    expect(hashTagOf("bull:queue")).toBeUndefined();
    expect(hashTagOf("bull}{x")).toBeUndefined();
    expect(hashTagOf("{x")).toBeUndefined();
  });
});
