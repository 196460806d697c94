/**
 * Where webhook receivers remember what they have already accepted (signatures inside the timestamp
 * window, `service-webhook-id` values of deliveries): a value is remembered until a time, and of any
 * number of concurrent callers with the same value exactly one is told it is the first. The library
 * ships a memory store and a Redis store; any shared store can implement it.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createMemoryReplayStore, type ReplayStore } from "messaging-events/server";
 *
 * const store: ReplayStore = createMemoryReplayStore();
 * const until = Date.now() + 300_000;
 * console.log(await store.rememberOnce("delivery:d-1", until)); // true: first time
 * console.log(await store.rememberOnce("delivery:d-1", until)); // false: seen before
 * await store.close();
 * ```
 */
export interface ReplayStore {
  /**
   * Remembers `value` until `expiresAt` (milliseconds since the epoch) and resolves to `true`, or
   * resolves to `false` when it is already remembered. A time already past remembers nothing and
   * resolves to `true`. Rejects (an `IdempotencyStoreError`) when the store cannot answer.
   */
  rememberOnce(value: string, expiresAt: number): Promise<boolean>;
  /** Releases what the store holds (not a client you passed in). Idempotent; later calls reject. */
  close(): Promise<void>;
}
