import type { ClaimResult, IdempotencyClaim, IdempotencyStore, StoredResponse } from "../IdempotencyStore.js";
import { IdempotencyStoreError } from "../IdempotencyStoreError.js";
import type { RedisClientLike } from "./RedisClientLike.js";
import { defineRedisScript } from "./redisScript.js";
import { isClusterRedirection, toRedisCommandSender } from "./toRedisCommandSender.js";

/**
 * The options of {@link createRedisIdempotencyStore}.
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import type { RedisIdempotencyStoreOptions } from "messaging-events/server/redis";
 * import { createClient } from "redis";
 *
 * const client = createClient();
 * client.on("error", (error) => console.error("redis", error));
 * const options: RedisIdempotencyStoreOptions = { client, prefix: "billing:idempotency:" };
 * ```
 */
export interface RedisIdempotencyStoreOptions {
  /**
   * A connected node-redis client, from `createClient()` or, for Redis Cluster, `createCluster()`, with
   * an `error` listener (the store warns once without one). The store never connects, quits or closes
   * it: you own it.
   */
  readonly client: RedisClientLike;
  /**
   * Put before every key the store writes, to share a database with other data. No hash tag is
   * needed on Redis Cluster (the store tags keys itself where a script needs it), and one (`{…}`)
   * would put every record on one master.
   * @default "messaging-events:idempotency:"
   */
  readonly prefix?: string;
  /**
   * The most live records one principal (scope) may hold: its unfinished claims and its completed
   * records still within retention. A claim past it fails with `ERR_IDEMPOTENCY_QUOTA_EXCEEDED`
   * (the events handler answers 429 `ERR_QUOTA_EXCEEDED`) and writes nothing; a replay of a key the
   * principal already holds still answers, and no other principal's record is ever touched. A
   * whole number, or `Infinity` for no quota.
   *
   * With a quota, each principal keeps a sorted-set index of its records next to them, and both
   * carry the principal in a hash tag, so on Redis Cluster one principal's records live on one
   * master. Turning the quota on or off changes where records are kept: records written before are
   * not seen after the switch.
   * @default Infinity (no quota: one SET NX PX per claim, records spread over every master)
   */
  readonly maxRecordsPerScope?: number;
}

// Every change after the claim runs only while the record is still the caller's unfinished claim:
// the script reads the owner token from the record and compares it, atomically. ARGV[1] is the token.
const owned = `local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local ok, record = pcall(cjson.decode, value)
if not ok or type(record) ~= 'table' or record[1] ~= 'in-flight' or record[2] ~= ARGV[1] then return 0 end
`;
const extendScript = /* @__PURE__ */ defineRedisScript(
  `${owned}return redis.call('PEXPIRE', KEYS[1], ARGV[2])`,
);
// ARGV[2] is the JSON of the response's members, without brackets; the fingerprint is kept from the claim.
const completeScript = /* @__PURE__ */ defineRedisScript(
  `${owned}redis.call('SET', KEYS[1], '["completed",' .. cjson.encode(record[3]) .. ',' .. ARGV[2] .. ']', 'PX', ARGV[3])
return 1`,
);
const releaseScript = /* @__PURE__ */ defineRedisScript(`${owned}return redis.call('DEL', KEYS[1])`);

// With a quota, KEYS[2] is the principal's index: a sorted set of its record keys, each scored by the
// record's expiry in the server's milliseconds. Expiries come from the server's clock (TIME), the
// clock PX and PEXPIRE count on, so processes with skewed clocks agree. The index expires with its
// last record. (Redis before 5 replicates a script that reads TIME only by its effects, when asked.)
const indexed = `if redis.replicate_commands then redis.replicate_commands() end
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function index(ms)
  redis.call('ZADD', KEYS[2], string.format('%.0f', now() + tonumber(ms)), KEYS[1])
  local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', KEYS[2], last[2])
end
`;
// ARGV: the claim's value, its lease and the quota. Answers the record already there, the quota
// being full, or the claim; writes nothing unless it claims.
const claimQuotaScript = /* @__PURE__ */ defineRedisScript(
  `${indexed}local value = redis.call('GET', KEYS[1])
if value then return {'exists', value} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now())
redis.call('ZREM', KEYS[2], KEYS[1])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return {'quota'} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
index(ARGV[2])
return {'claimed'}`,
);
const extendQuotaScript = /* @__PURE__ */ defineRedisScript(
  `${indexed}${owned}redis.call('PEXPIRE', KEYS[1], ARGV[2])
index(ARGV[2])
return 1`,
);
const completeQuotaScript = /* @__PURE__ */ defineRedisScript(
  `${indexed}${owned}redis.call('SET', KEYS[1], '["completed",' .. cjson.encode(record[3]) .. ',' .. ARGV[2] .. ']', 'PX', ARGV[3])
index(ARGV[3])
return 1`,
);
const releaseQuotaScript = /* @__PURE__ */ defineRedisScript(
  `${owned}redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1`,
);

/** The value of an unfinished claim; the scripts compare it whole, so it names the token and the document. */
const inFlightValue = (token: string, fingerprint: string) =>
  JSON.stringify(["in-flight", token, fingerprint]);
/** The response members of a completed record, as the complete script splices them after the fingerprint. */
const responseMembers = (response: StoredResponse) =>
  JSON.stringify([response.status, response.headers, response.body]).slice(1, -1);

const milliseconds = (value: number) => String(Math.max(1, Math.ceil(value)));

type Parsed =
  | { kind: "in-flight"; token: string; fingerprint: string }
  | { kind: "completed"; fingerprint: string; response: StoredResponse };

function parseValue(value: unknown): Parsed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch (cause) {
    throw new IdempotencyStoreError(
      "ERR_IDEMPOTENCY_STORE_CORRUPT",
      "an idempotency record is not readable",
      {
        cause,
      },
    );
  }
  if (Array.isArray(parsed)) {
    const [kind, a, b, c, d] = parsed as unknown[];
    if (kind === "in-flight" && typeof a === "string" && typeof b === "string") {
      return { kind, token: a, fingerprint: b };
    }
    if (
      kind === "completed" &&
      typeof a === "string" &&
      typeof b === "number" &&
      Array.isArray(c) &&
      c.every(
        (pair) =>
          Array.isArray(pair) &&
          pair.length === 2 &&
          typeof pair[0] === "string" &&
          typeof pair[1] === "string",
      ) &&
      typeof d === "string"
    ) {
      return { kind, fingerprint: a, response: { status: b, headers: c as [string, string][], body: d } };
    }
  }
  throw new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_CORRUPT", "an idempotency record is not readable");
}

/** What a claim answers when the key already holds a record. */
function answerTo(claim: IdempotencyClaim, current: unknown): ClaimResult {
  const parsed = parseValue(current);
  if (parsed.fingerprint !== claim.fingerprint) return { status: "mismatch" };
  return parsed.kind === "completed"
    ? { status: "completed", response: parsed.response }
    : { status: "in-flight" };
}

/**
 * Creates an {@link IdempotencyStore} in Redis, shared by every process that uses the same server
 * and prefix. It takes a connected client of the `redis` package (node-redis, an optional peer
 * dependency: this library never imports it). A claim is one `SET key value NX PX lease`, so of
 * concurrent claims exactly one wins; every later change (extend, complete, release) is a Lua
 * script that applies only while the record is still the caller's claim, so a holder whose lease ran
 * out can never overwrite the request that took over. Keys travel in `KEYS[]`, never inside a
 * script; scripts run by SHA and are sent again after `SCRIPT FLUSH` or a restart. A failing or
 * disconnected client rejects with `ERR_IDEMPOTENCY_STORE_UNAVAILABLE` (the handler answers 503 and
 * time-boxes every call, since a disconnected node-redis client queues commands until it is back).
 *
 * On Redis Cluster pass a `createCluster()` client: every command and script touches one key, so it
 * runs on that key's master and records spread over all masters; the cluster client follows `MOVED`,
 * `ASK` and failovers. A `createClient()` client connected to one node of a cluster fails, for the
 * keys that node does not serve, with `ERR_IDEMPOTENCY_STORE_UNAVAILABLE` and a message that says to
 * use `createCluster()`. A client of another shape is refused here with a TypeError.
 *
 * Records live their full retention. `maxRecordsPerScope` bounds each principal's live records: a
 * claim past it fails with `ERR_IDEMPOTENCY_QUOTA_EXCEEDED` and writes nothing, so one principal's
 * flood never costs another principal's records (the claim is then one script that also keeps the
 * principal's index).
 *
 * Exported from `messaging-events/server/redis`.
 *
 * @example
 * ```ts
 * import { createEventsHandler } from "messaging-events/server";
 * import { createRedisIdempotencyStore } from "messaging-events/server/redis";
 * import { createClient } from "redis";
 *
 * const client = createClient({ url: "redis://127.0.0.1:6379" });
 * client.on("error", (error) => console.error("redis", error)); // without it an outage ends the process
 * // await client.connect(); (the store expects a connected client)
 * const store = createRedisIdempotencyStore({ client, prefix: "events:" });
 * const handler = createEventsHandler({
 *   store,
 *   authorize: () => "demo-tenant",
 *   create: async () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
 * });
 * await handler.close();
 * await store.close();
 * ```
 */
export function createRedisIdempotencyStore(options: RedisIdempotencyStoreOptions): IdempotencyStore {
  const send = toRedisCommandSender(options?.client, "createRedisIdempotencyStore");
  const prefix = options.prefix ?? "messaging-events:idempotency:";
  if (typeof prefix !== "string") throw new TypeError("createRedisIdempotencyStore: prefix must be a string");
  const quota = options.maxRecordsPerScope ?? Number.POSITIVE_INFINITY;
  if (quota !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(quota) && quota >= 1)) {
    throw new TypeError(
      "createRedisIdempotencyStore: maxRecordsPerScope must be a whole number >= 1 or Infinity",
    );
  }
  const quotaOn = quota !== Number.POSITIVE_INFINITY;
  // Redis hashes a whole key whose first "{" is followed by "}": a record and its index would then
  // land in different slots.
  if (quotaOn && prefix.includes("{") && prefix[prefix.indexOf("{") + 1] === "}") {
    throw new TypeError(
      'createRedisIdempotencyStore: with maxRecordsPerScope, prefix must not hold an empty hash tag "{}"',
    );
  }
  let closed = false;

  // The scope's length leads, so no two (scope, key) pairs share a Redis key. With a quota, the
  // scope is a hash tag shared by its records and its index (the index's key ends at the tag, so it
  // is never a record's key), and every script touches one slot.
  const scopePart = (scope: string) => `${scope.length}:${scope}`;
  const redisKey = quotaOn
    ? (ref: { scope: string; key: string }) => `${prefix}{${scopePart(ref.scope)}}:${ref.key}`
    : (ref: { scope: string; key: string }) => `${prefix}${scopePart(ref.scope)}:${ref.key}`;
  const keysOf = (ref: { scope: string; key: string }): [string, ...string[]] =>
    quotaOn ? [redisKey(ref), `${prefix}{${scopePart(ref.scope)}}`] : [redisKey(ref)];
  const scripts = quotaOn
    ? { extend: extendQuotaScript, complete: completeQuotaScript, release: releaseQuotaScript }
    : { extend: extendScript, complete: completeScript, release: releaseScript };

  async function call<T>(run: () => Promise<T>): Promise<T> {
    if (closed) {
      throw new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_CLOSED", "the idempotency store is closed");
    }
    try {
      return await run();
    } catch (cause) {
      if (cause instanceof IdempotencyStoreError) throw cause;
      if (isClusterRedirection(cause)) {
        throw new IdempotencyStoreError(
          "ERR_IDEMPOTENCY_STORE_UNAVAILABLE",
          "Redis answered MOVED or ASK: the client is connected to one node of a Redis Cluster; pass a node-redis client from createCluster() instead of createClient()",
          { cause },
        );
      }
      throw new IdempotencyStoreError(
        "ERR_IDEMPOTENCY_STORE_UNAVAILABLE",
        "the Redis idempotency store failed",
        {
          cause,
        },
      );
    }
  }

  return {
    claim: (claim: IdempotencyClaim) =>
      call(async (): Promise<ClaimResult> => {
        const value = inFlightValue(claim.token, claim.fingerprint);
        if (quotaOn) {
          const args = [value, milliseconds(claim.leaseMs), String(quota)];
          const answer = (await claimQuotaScript.run(send, keysOf(claim), args)) as unknown[];
          if (answer?.[0] === "claimed") return { status: "claimed" };
          if (answer?.[0] === "quota") {
            throw new IdempotencyStoreError(
              "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
              "the principal holds as many idempotency records as maxRecordsPerScope allows: retry once some expire",
            );
          }
          return answerTo(claim, answer?.[1]);
        }
        const key = redisKey(claim);
        for (let attempt = 0; attempt < 3; attempt++) {
          const set = await send(key, ["SET", key, value, "NX", "PX", milliseconds(claim.leaseMs)]);
          if (set === "OK") return { status: "claimed" };
          const current = await send(key, ["GET", key]);
          // Expired between the two commands: claim again.
          if (current === null || current === undefined) continue;
          return answerTo(claim, current);
        }
        return { status: "in-flight" };
      }),
    extend: (ref, leaseMs) =>
      call(async () => {
        const result = await scripts.extend.run(send, keysOf(ref), [ref.token, milliseconds(leaseMs)]);
        return Number(result) === 1;
      }),
    complete: (ref, response, retentionMs) =>
      call(async () => {
        const args = [ref.token, responseMembers(response), milliseconds(retentionMs)];
        return Number(await scripts.complete.run(send, keysOf(ref), args)) === 1;
      }),
    release: (ref) =>
      call(async () => Number(await scripts.release.run(send, keysOf(ref), [ref.token])) === 1),
    async close() {
      closed = true;
    },
  };
}
