/**
 * Why an idempotency store refused a call:
 *
 * - `ERR_IDEMPOTENCY_STORE_CLOSED`: the store was closed;
 * - `ERR_IDEMPOTENCY_STORE_FULL`: a memory store cannot make room for a record: its total budget
 *   (`maxEntries`, `maxBytes`) is taken, and the principal has no expired or completed record of its
 *   own to drop;
 * - `ERR_IDEMPOTENCY_QUOTA_EXCEEDED`: the principal's own budget is taken by its unfinished claims
 *   (`maxEntriesPerScope`, `maxBytesPerScope` of the memory store): it must wait for them, and no other
 *   principal is affected;
 * - `ERR_IDEMPOTENCY_STORE_UNAVAILABLE`: the backing service failed or did not answer in time;
 * - `ERR_IDEMPOTENCY_STORE_CORRUPT`: a record could not be read back.
 *
 * The events handler answers 503 with `Retry-After` for each of them, except `ERR_IDEMPOTENCY_QUOTA_EXCEEDED`,
 * which concerns one principal: 429 `ERR_QUOTA_EXCEEDED` with `Retry-After`.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { IdempotencyStoreErrorCode } from "messaging-events/server";
 *
 * const code: IdempotencyStoreErrorCode = "ERR_IDEMPOTENCY_STORE_UNAVAILABLE";
 * ```
 */
export type IdempotencyStoreErrorCode =
  | "ERR_IDEMPOTENCY_STORE_CLOSED"
  | "ERR_IDEMPOTENCY_STORE_FULL"
  | "ERR_IDEMPOTENCY_QUOTA_EXCEEDED"
  | "ERR_IDEMPOTENCY_STORE_UNAVAILABLE"
  | "ERR_IDEMPOTENCY_STORE_CORRUPT";

const brand = Symbol.for("messaging-events.IdempotencyStoreError");

/**
 * The error an idempotency store rejects with. The message never carries a key, a principal or a
 * connection string; the original failure, if any, is kept as `cause`.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createMemoryIdempotencyStore, IdempotencyStoreError } from "messaging-events/server";
 *
 * const store = createMemoryIdempotencyStore();
 * await store.close();
 * try {
 *   await store.release({ scope: "tenant-7", key: "order-42", token: "t" });
 * } catch (error) {
 *   if (error instanceof IdempotencyStoreError) console.log(error.code); // "ERR_IDEMPOTENCY_STORE_CLOSED"
 * }
 * ```
 */
export class IdempotencyStoreError extends Error {
  /** Why the call failed, as a stable code. */
  readonly code: IdempotencyStoreErrorCode;

  /**
   * Creates the error. Stores create these; applications normally only read them.
   *
   * @param code - Why the call failed.
   * @param message - What happened, without secrets.
   * @param options - `cause`: the failure being wrapped.
   */
  constructor(code: IdempotencyStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "IdempotencyStoreError";
    this.code = code;
  }

  /** @internal Marks instances so {@link isIdempotencyStoreError} recognises them across realms and copies. */
  get [brand](): true {
    return true;
  }
}

/**
 * Tells whether a value is an {@link IdempotencyStoreError}, also from another realm or another copy
 * of this library, where `instanceof` fails. Never throws.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { isIdempotencyStoreError } from "messaging-events/server";
 *
 * isIdempotencyStoreError(new Error("boom")); // false
 * ```
 */
export function isIdempotencyStoreError(value: unknown): value is IdempotencyStoreError {
  try {
    return (
      value instanceof IdempotencyStoreError ||
      (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true)
    );
  } catch {
    return false;
  }
}
