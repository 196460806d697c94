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
   * needed on Redis Cluster (every command and script touches one key), and one (`{…}`) would put
   * every record on one master.
   * @default "messaging-events:idempotency:"
   */
  readonly prefix?: string;
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
  let closed = false;

  // The scope's length leads, so no two (scope, key) pairs share a Redis key.
  const redisKey = (ref: { scope: string; key: string }) =>
    `${prefix}${ref.scope.length}:${ref.scope}:${ref.key}`;

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
        const key = redisKey(claim);
        for (let attempt = 0; attempt < 3; attempt++) {
          const set = await send(key, [
            "SET",
            key,
            inFlightValue(claim.token, claim.fingerprint),
            "NX",
            "PX",
            milliseconds(claim.leaseMs),
          ]);
          if (set === "OK") return { status: "claimed" };
          const current = await send(key, ["GET", key]);
          // Expired between the two commands: claim again.
          if (current === null || current === undefined) continue;
          const parsed = parseValue(current);
          if (parsed.fingerprint !== claim.fingerprint) return { status: "mismatch" };
          return parsed.kind === "completed"
            ? { status: "completed", response: parsed.response }
            : { status: "in-flight" };
        }
        return { status: "in-flight" };
      }),
    extend: (ref, leaseMs) =>
      call(async () => {
        const result = await extendScript.run(send, redisKey(ref), [ref.token, milliseconds(leaseMs)]);
        return Number(result) === 1;
      }),
    complete: (ref, response, retentionMs) =>
      call(async () => {
        const args = [ref.token, responseMembers(response), milliseconds(retentionMs)];
        return Number(await completeScript.run(send, redisKey(ref), args)) === 1;
      }),
    release: (ref) =>
      call(async () => Number(await releaseScript.run(send, redisKey(ref), [ref.token])) === 1),
    async close() {
      closed = true;
    },
  };
}
