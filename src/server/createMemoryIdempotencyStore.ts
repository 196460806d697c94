import type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyRecordRef,
  IdempotencyStore,
  StoredResponse,
} from "./IdempotencyStore.js";
import { IdempotencyStoreError } from "./IdempotencyStoreError.js";

/**
 * The options of {@link createMemoryIdempotencyStore}.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { MemoryIdempotencyStoreOptions } from "messaging-events/server";
 *
 * const options: MemoryIdempotencyStoreOptions = { maxEntries: 50_000 };
 * ```
 */
export interface MemoryIdempotencyStoreOptions {
  /**
   * The most records kept at once. When the store is full, expired records go first, then the
   * oldest completed ones (a retry of such a key is no longer recognised); when every record is an
   * unfinished claim, a new claim fails with `ERR_IDEMPOTENCY_STORE_FULL` (the handler answers 503).
   * @default 100000
   */
  readonly maxEntries?: number;
  /**
   * The most memory the records may take, in bytes (estimated from their text: two bytes per
   * character). The same order applies when a new record does not fit: expired records go first,
   * then the oldest completed ones; then the call fails with `ERR_IDEMPOTENCY_STORE_FULL`.
   * @default 67108864 (64 MiB)
   */
  readonly maxBytes?: number;
  /**
   * The clock, in milliseconds since the epoch (for tests that move time).
   * @default Date.now
   */
  readonly now?: () => number;
}

/**
 * One record. Records are the store's own objects, never handed out (responses are copied in and
 * out), so a change updates the record in place: one map lookup per call instead of a lookup and a
 * write, and the record keeps its place in the map's order as a write of the same key would.
 */
interface MemoryRecord {
  /** The map key, kept so that the cursors can drop a record they meet. */
  readonly id: string;
  readonly fingerprint: string;
  /** The owner of an unfinished claim; `undefined` once completed. */
  token: string | undefined;
  response: StoredResponse | undefined;
  expiresAt: number;
  /** What {@link sizeOf} estimated when the record last changed. */
  size: number;
}

/**
 * How many of the oldest records each new claim looks at, to drop the expired ones as it goes: more
 * than one per record added, so the walk keeps up with what is written (completing a claim adds no
 * record, and does not walk).
 */
const SWEEP_PER_CLAIM = 4;

/** One string per (scope, key) that no two different pairs share: the scope's length leads. */
const recordId = (scope: string, key: string) => `${scope.length}:${scope}:${key}`;

// Answers without a response are the same every time: one frozen object each.
const CLAIMED: ClaimResult = Object.freeze({ status: "claimed" });
const IN_FLIGHT: ClaimResult = Object.freeze({ status: "in-flight" });
const MISMATCH: ClaimResult = Object.freeze({ status: "mismatch" });

/**
 * Creates an {@link IdempotencyStore} in this process's memory: for one server process, tests and
 * demos (several processes need a shared store, such as the Redis one). It is bounded by
 * `maxEntries` and `maxBytes`, and every new claim drops a few expired records, so memory follows
 * the live records.
 * Responses are copied in and out, so nothing a caller keeps can change a record.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createEventsHandler, createMemoryIdempotencyStore } from "messaging-events/server";
 *
 * const store = createMemoryIdempotencyStore({ maxEntries: 10_000 });
 * const handler = createEventsHandler({
 *   store,
 *   authorize: (request) => (request.headers.get("authorization") === "Bearer demo" ? "demo-tenant" : null),
 *   create: async () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
 * });
 * await handler.close();
 * await store.close();
 * ```
 */
export function createMemoryIdempotencyStore(options: MemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  const maxEntries = options?.maxEntries ?? 100_000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError("createMemoryIdempotencyStore: maxEntries must be a whole number >= 1");
  }
  const maxBytes = options?.maxBytes ?? 64 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new TypeError("createMemoryIdempotencyStore: maxBytes must be a whole number >= 1");
  }
  const now = options?.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryIdempotencyStore: now must be a function");
  // Records in the order of their first write (a later write keeps a record's place), so the oldest
  // come first. Two cursors walk them and start over at the end: one drops expired records a few at a
  // time, the other drops the oldest completed ones when the store is full. Neither ever walks from
  // the start again, where a map keeps the holes of deleted entries: each write costs a few steps,
  // whatever the size.
  const records = new Map<string, MemoryRecord>();
  let sweepCursor = records.values();
  let evictCursor = records.values();
  let bytes = 0;
  let closed = false;

  const remove = (record: MemoryRecord) => {
    bytes -= record.size;
    records.delete(record.id);
  };

  const open = () => {
    if (closed) {
      throw new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_CLOSED", "the idempotency store is closed");
    }
  };
  /** The record of `id` unless it has expired (an expired one is dropped on the way). */
  const live = (id: string, at: number): MemoryRecord | undefined => {
    const record = records.get(id);
    if (record === undefined) return undefined;
    if (record.expiresAt > at) return record;
    remove(record);
    return undefined;
  };
  const sweep = (at: number) => {
    for (let looked = 0; looked < SWEEP_PER_CLAIM && looked < records.size; looked++) {
      let step = sweepCursor.next();
      if (step.done === true) {
        sweepCursor = records.values();
        step = sweepCursor.next();
        if (step.done === true) return;
      }
      if (step.value.expiresAt <= at) remove(step.value);
    }
  };
  const fits = (entries: number, extraBytes: number) =>
    records.size + entries <= maxEntries && bytes + extraBytes <= maxBytes;
  /** Frees room for `entries` more records and `extraBytes` more bytes, or throws. */
  const makeRoom = (at: number, entries: number, extraBytes: number) => {
    if (entries > 0) sweep(at);
    if (fits(entries, extraBytes)) return;
    // Full: at most one lap, dropping expired records and completed ones, oldest first. Unfinished
    // claims are never dropped: that would let a second request run.
    for (let looked = 0, size = records.size; looked < size && !fits(entries, extraBytes); looked++) {
      let step = evictCursor.next();
      if (step.done === true) {
        evictCursor = records.values();
        step = evictCursor.next();
        if (step.done === true) break;
      }
      if (step.value.expiresAt <= at || step.value.token === undefined) remove(step.value);
    }
    if (!fits(entries, extraBytes)) {
      throw new IdempotencyStoreError(
        "ERR_IDEMPOTENCY_STORE_FULL",
        `the memory idempotency store is full of unfinished requests (maxEntries ${maxEntries}, maxBytes ${maxBytes})`,
      );
    }
  };
  /** The unfinished claim that `ref`'s token holds, if it still does. */
  const owned = (ref: IdempotencyRecordRef, at: number): MemoryRecord | undefined => {
    const record = live(recordId(ref.scope, ref.key), at);
    return record !== undefined && record.token !== undefined && record.token === ref.token
      ? record
      : undefined;
  };

  return {
    async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
      open();
      const at = now();
      const id = recordId(claim.scope, claim.key);
      const found = live(id, at);
      if (found !== undefined) {
        if (found.fingerprint !== claim.fingerprint) return MISMATCH;
        return found.response === undefined
          ? IN_FLIGHT
          : { status: "completed", response: copyResponse(found.response) };
      }
      const record: MemoryRecord = {
        id,
        fingerprint: claim.fingerprint,
        token: claim.token,
        response: undefined,
        expiresAt: at + claim.leaseMs,
        size: 0,
      };
      record.size = sizeOf(record);
      makeRoom(at, 1, record.size);
      records.set(id, record);
      bytes += record.size;
      return CLAIMED;
    },
    async extend(ref, leaseMs) {
      open();
      const at = now();
      const record = owned(ref, at);
      if (record === undefined) return false;
      record.expiresAt = at + leaseMs;
      return true;
    },
    async complete(ref, response, retentionMs) {
      open();
      const at = now();
      const record = owned(ref, at);
      if (record === undefined) return false;
      const copy = copyResponse(response);
      const size = sizeOf({
        id: record.id,
        fingerprint: record.fingerprint,
        token: undefined,
        response: copy,
      });
      // The claim stays while room is made (it is never dropped: it is unfinished and not expired at
      // `at`), then the record becomes the completed one.
      makeRoom(at, 0, size - record.size);
      record.token = undefined;
      record.response = copy;
      record.expiresAt = at + retentionMs;
      bytes += size - record.size;
      record.size = size;
      return true;
    },
    async release(ref) {
      open();
      const record = owned(ref, now());
      if (record === undefined) return false;
      remove(record);
      return true;
    },
    async close() {
      closed = true;
      records.clear();
      sweepCursor = records.values();
      evictCursor = records.values();
      bytes = 0;
    },
  };
}

/** The memory a record takes, estimated from its text (two bytes per character) plus a fixed overhead. */
function sizeOf(record: Pick<MemoryRecord, "id" | "fingerprint" | "token" | "response">): number {
  let characters = record.id.length + record.fingerprint.length + (record.token?.length ?? 0);
  if (record.response !== undefined) {
    characters += record.response.body.length;
    for (const [name, value] of record.response.headers) characters += name.length + value.length;
  }
  return 2 * characters + 128;
}

function copyResponse(response: StoredResponse): StoredResponse {
  return {
    status: response.status,
    headers: response.headers.map(([name, value]) => [name, value] as const),
    body: response.body,
  };
}
