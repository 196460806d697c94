import { IdempotencyStoreError } from "./IdempotencyStoreError.js";
import type { ReplayStore } from "./ReplayStore.js";

/**
 * The options of {@link createMemoryReplayStore}.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { MemoryReplayStoreOptions } from "messaging-events/server";
 *
 * const options: MemoryReplayStoreOptions = { maxEntries: 50_000 };
 * ```
 */
export interface MemoryReplayStoreOptions {
  /**
   * The most values remembered at once. When full, expired values go first; if none has expired, a
   * new value is refused with `ERR_IDEMPOTENCY_STORE_FULL` rather than forgetting one still inside its
   * window (which would let a replay through).
   * @default 100000
   */
  readonly maxEntries?: number;
  /**
   * The clock, in milliseconds since the epoch (for tests that move time).
   * @default Date.now
   */
  readonly now?: () => number;
}

/**
 * Creates a {@link ReplayStore} in this process's memory, for a single receiver process and for
 * tests (several processes need a shared store, such as the Redis one). Bounded by `maxEntries`;
 * every call drops a few expired values as it goes.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createMemoryReplayStore } from "messaging-events/server";
 *
 * const store = createMemoryReplayStore({ maxEntries: 10_000 });
 * if (await store.rememberOnce("delivery:d-42", Date.now() + 60_000)) console.log("new delivery");
 * await store.close();
 * ```
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  const maxEntries = options?.maxEntries ?? 100_000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError("createMemoryReplayStore: maxEntries must be a whole number >= 1");
  }
  const now = options?.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryReplayStore: now must be a function");
  const values = new Map<string, number>();
  let closed = false;

  const sweep = (at: number, limit: number) => {
    let looked = 0;
    for (const [value, expiresAt] of values) {
      if (looked++ >= limit) break;
      if (expiresAt <= at) values.delete(value);
    }
  };

  return {
    async rememberOnce(value, expiresAt) {
      if (closed)
        throw new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_CLOSED", "the replay store is closed");
      const at = now();
      const known = values.get(value);
      if (known !== undefined && known > at) return false;
      values.delete(value);
      if (!(expiresAt > at)) return true;
      sweep(at, 4);
      if (values.size >= maxEntries) sweep(at, Number.POSITIVE_INFINITY);
      if (values.size >= maxEntries) {
        throw new IdempotencyStoreError(
          "ERR_IDEMPOTENCY_STORE_FULL",
          `the memory replay store holds ${maxEntries} values inside their window (maxEntries)`,
        );
      }
      values.set(value, expiresAt);
      return true;
    },
    async close() {
      closed = true;
      values.clear();
    },
  };
}
