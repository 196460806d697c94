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

interface MemoryRecord {
  readonly fingerprint: string;
  /** The owner of an unfinished claim; `undefined` once completed. */
  readonly token: string | undefined;
  readonly response: StoredResponse | undefined;
  readonly expiresAt: number;
}

/** How many of the oldest records each write looks at, to drop the expired ones as it goes. */
const SWEEP_PER_WRITE = 4;

/** One string per (scope, key) that no two different pairs share: the scope's length leads. */
const recordId = (scope: string, key: string) => `${scope.length}:${scope}:${key}`;

/**
 * Creates an {@link IdempotencyStore} in this process's memory: for one server process, tests and
 * demos (several processes need a shared store, such as the Redis one). It is bounded by
 * `maxEntries` and `maxBytes`, and every write drops a few expired records, so memory follows the
 * live records.
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
  const cursors = { sweep: records.entries(), evict: records.entries() };
  const next = (name: keyof typeof cursors): [string, MemoryRecord] | undefined => {
    let step = cursors[name].next();
    if (step.done) {
      cursors[name] = records.entries();
      step = cursors[name].next();
    }
    return step.done ? undefined : step.value;
  };
  let bytes = 0;
  let closed = false;

  const remove = (id: string) => {
    const record = records.get(id);
    if (record === undefined) return;
    bytes -= sizeOf(id, record);
    records.delete(id);
  };

  const open = () => {
    if (closed) {
      throw new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_CLOSED", "the idempotency store is closed");
    }
  };
  const live = (id: string, at: number): MemoryRecord | undefined => {
    const record = records.get(id);
    if (record === undefined) return undefined;
    if (record.expiresAt > at) return record;
    remove(id);
    return undefined;
  };
  const write = (id: string, record: MemoryRecord) => {
    const previous = records.get(id);
    if (previous !== undefined) bytes -= sizeOf(id, previous);
    records.set(id, record);
    bytes += sizeOf(id, record);
  };
  const sweep = (at: number, limit: number) => {
    for (let looked = 0; looked < limit && looked < records.size; looked++) {
      const entry = next("sweep");
      if (entry === undefined) return;
      if (entry[1].expiresAt <= at) remove(entry[0]);
    }
  };
  /** Frees room for `entries` more records and `extraBytes` more bytes, or throws. */
  const makeRoom = (at: number, entries: number, extraBytes: number) => {
    const fits = () => records.size + entries <= maxEntries && bytes + extraBytes <= maxBytes;
    sweep(at, SWEEP_PER_WRITE);
    if (fits()) return;
    // Full: at most one lap, dropping expired records and completed ones, oldest first. Unfinished
    // claims are never dropped: that would let a second request run.
    for (let looked = 0, size = records.size; looked < size && !fits(); looked++) {
      const entry = next("evict");
      if (entry === undefined) break;
      if (entry[1].expiresAt <= at || entry[1].token === undefined) remove(entry[0]);
    }
    if (!fits()) {
      throw new IdempotencyStoreError(
        "ERR_IDEMPOTENCY_STORE_FULL",
        `the memory idempotency store is full of unfinished requests (maxEntries ${maxEntries}, maxBytes ${maxBytes})`,
      );
    }
  };
  const owned = (ref: IdempotencyRecordRef, at: number): string | undefined => {
    const id = recordId(ref.scope, ref.key);
    const record = live(id, at);
    return record !== undefined && record.token !== undefined && record.token === ref.token ? id : undefined;
  };

  return {
    async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
      open();
      const at = now();
      const id = recordId(claim.scope, claim.key);
      const found = live(id, at);
      if (found !== undefined) {
        if (found.fingerprint !== claim.fingerprint) return { status: "mismatch" };
        return found.response === undefined
          ? { status: "in-flight" }
          : { status: "completed", response: copyResponse(found.response) };
      }
      const record: MemoryRecord = {
        fingerprint: claim.fingerprint,
        token: claim.token,
        response: undefined,
        expiresAt: at + claim.leaseMs,
      };
      makeRoom(at, 1, sizeOf(id, record));
      write(id, record);
      return { status: "claimed" };
    },
    async extend(ref, leaseMs) {
      open();
      const at = now();
      const id = owned(ref, at);
      if (id === undefined) return false;
      write(id, { ...records.get(id)!, expiresAt: at + leaseMs });
      return true;
    },
    async complete(ref, response, retentionMs) {
      open();
      const at = now();
      const id = owned(ref, at);
      if (id === undefined) return false;
      const claimed = records.get(id)!;
      const record: MemoryRecord = {
        fingerprint: claimed.fingerprint,
        token: undefined,
        response: copyResponse(response),
        expiresAt: at + retentionMs,
      };
      // The claim stays while room is made (it is never dropped), then the record replaces it.
      makeRoom(at, 0, sizeOf(id, record) - sizeOf(id, claimed));
      write(id, record);
      return true;
    },
    async release(ref) {
      open();
      const id = owned(ref, now());
      if (id === undefined) return false;
      remove(id);
      return true;
    },
    async close() {
      closed = true;
      records.clear();
      cursors.sweep = records.entries();
      cursors.evict = records.entries();
      bytes = 0;
    },
  };
}

/** The memory a record takes, estimated from its text (two bytes per character) plus a fixed overhead. */
function sizeOf(id: string, record: MemoryRecord): number {
  let characters = id.length + record.fingerprint.length + (record.token?.length ?? 0);
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
