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
   * The most records kept at once, for all principals together. A principal that needs room drops
   * only records of its own (expired first, then its oldest completed ones); when it has none left to
   * drop, a new claim fails with `ERR_IDEMPOTENCY_STORE_FULL` (the handler answers 503). Another
   * principal's record is never dropped before its retention ends.
   * @default 100000
   */
  readonly maxEntries?: number;
  /**
   * The most memory the records may take, in bytes (estimated from their text: two bytes per
   * character), for all principals together. The same order applies when a new record does not fit.
   * A completing write may pass it while other principals hold the rest: a finished request's answer
   * is never dropped (a retry would run `create` again), and new claims wait until the total is back
   * under it.
   * @default 67108864 (64 MiB)
   */
  readonly maxBytes?: number;
  /**
   * The most records one principal (the `scope` of a record) keeps at once. Past it, the principal's
   * expired records go, then its oldest completed ones; when all of its records are unfinished claims,
   * its new claim fails with `ERR_IDEMPOTENCY_QUOTA_EXCEEDED`. Four principals at their full share fill
   * the default `maxEntries`; a server with one principal can set it to `maxEntries`.
   * @default 25000 (a quarter of the default maxEntries)
   */
  readonly maxEntriesPerScope?: number;
  /**
   * The most memory one principal's records may take, in bytes, estimated as for `maxBytes`. Past
   * it, the same order applies; a response that does not fit even after the principal's completed
   * records went fails with `ERR_IDEMPOTENCY_QUOTA_EXCEEDED`.
   * @default 16777216 (16 MiB, a quarter of the default maxBytes)
   */
  readonly maxBytesPerScope?: number;
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
  /** The principal's budget, which counts this record. */
  readonly budget: ScopeBudget;
  readonly fingerprint: string;
  /** The owner of an unfinished claim; `undefined` once completed. */
  token: string | undefined;
  response: StoredResponse | undefined;
  expiresAt: number;
  /** What {@link sizeOf} estimated when the record last changed. */
  size: number;
}

/** What one principal holds: the only records its own writes may drop. */
interface ScopeBudget {
  readonly scope: string;
  /** The principal's records in the order of their first write, oldest first. */
  readonly records: Map<string, MemoryRecord>;
  /** Walks `records` and starts over at the end, as the store's cursors do. */
  evictCursor: IterableIterator<MemoryRecord>;
  bytes: number;
}

/**
 * How many of the oldest records each new claim looks at, to drop the expired ones as it goes: more
 * than one per record added, so the walk keeps up with what is written (completing a claim adds no
 * record, and does not walk).
 */
const SWEEP_PER_CLAIM = 4;

/**
 * How many more records a claim looks at when the whole store is full, for expired records of any
 * principal: bounded, so that a full store costs each refused request a few steps, not a lap.
 */
const SWEEP_WHEN_FULL = 32;

/** One string per (scope, key) that no two different pairs share: the scope's length leads. */
const recordId = (scope: string, key: string) => `${scope.length}:${scope}:${key}`;

// Answers without a response are the same every time: one frozen object each.
const CLAIMED: ClaimResult = Object.freeze({ status: "claimed" });
const IN_FLIGHT: ClaimResult = Object.freeze({ status: "in-flight" });
const MISMATCH: ClaimResult = Object.freeze({ status: "mismatch" });

/**
 * Creates an {@link IdempotencyStore} in this process's memory: for one server process, tests and
 * demos (several processes need a shared store, such as the Redis one). It is bounded in total
 * (`maxEntries`, `maxBytes`) and per principal (`maxEntriesPerScope`, `maxBytesPerScope`); a
 * principal's records are dropped before their retention ends only to make room for that
 * principal's own later records, never for another's. Every new claim drops a few expired records,
 * so memory follows the live records.
 * Responses are copied in and out, so nothing a caller keeps can change a record.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createEventsHandler, createMemoryIdempotencyStore } from "messaging-events/server";
 *
 * const store = createMemoryIdempotencyStore({ maxEntries: 10_000, maxEntriesPerScope: 2_500 });
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
  const maxEntries = wholeNumberOption(options?.maxEntries, 100_000, "maxEntries");
  const maxBytes = wholeNumberOption(options?.maxBytes, 64 * 1024 * 1024, "maxBytes");
  const maxEntriesPerScope = wholeNumberOption(options?.maxEntriesPerScope, 25_000, "maxEntriesPerScope");
  const maxBytesPerScope = wholeNumberOption(options?.maxBytesPerScope, 16 * 1024 * 1024, "maxBytesPerScope");
  // A principal's share never exceeds the whole store.
  const scopeEntries = Math.min(maxEntriesPerScope, maxEntries);
  const scopeBytes = Math.min(maxBytesPerScope, maxBytes);
  const now = options?.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryIdempotencyStore: now must be a function");
  // Records in the order of their first write (a later write keeps a record's place), so the oldest
  // come first; each principal's budget keeps its own records in the same order. Cursors walk them
  // and start over at the end: one over all records drops expired ones a few at a time, one per
  // principal drops that principal's oldest completed records when it needs room. None ever walks
  // from the start again, where a map keeps the holes of deleted entries: each write costs a few
  // steps, whatever the size.
  const records = new Map<string, MemoryRecord>();
  const budgets = new Map<string, ScopeBudget>();
  let sweepCursor = records.values();
  let bytes = 0;
  let closed = false;

  const remove = (record: MemoryRecord) => {
    const budget = record.budget;
    bytes -= record.size;
    budget.bytes -= record.size;
    records.delete(record.id);
    budget.records.delete(record.id);
    // An empty budget goes, so that principals seen once cost nothing later.
    if (budget.records.size === 0 && budgets.get(budget.scope) === budget) budgets.delete(budget.scope);
  };
  const budgetOf = (scope: string): ScopeBudget => {
    let budget = budgets.get(scope);
    if (budget === undefined) {
      const own = new Map<string, MemoryRecord>();
      budget = { scope, records: own, evictCursor: own.values(), bytes: 0 };
      budgets.set(scope, budget);
    }
    return budget;
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
  /** Looks at the next `steps` records of all principals and drops the expired ones. */
  const sweep = (at: number, steps: number) => {
    for (let looked = 0; looked < steps && looked < records.size; looked++) {
      let step = sweepCursor.next();
      if (step.done === true) {
        sweepCursor = records.values();
        step = sweepCursor.next();
        if (step.done === true) return;
      }
      if (step.value.expiresAt <= at) remove(step.value);
    }
  };
  /**
   * Frees room for `entries` more records and `extraBytes` more bytes of `budget`'s principal, or
   * throws. Only expired records (of anyone) and the principal's own completed records are dropped.
   * A claim (`entries` 1) needs room in the principal's share and in the total; a completing write
   * (`entries` 0) only in the principal's share: when other principals filled the total, it passes
   * it, because refusing it would leave the claim to lapse and a retry to run `create` again.
   */
  const makeRoom = (budget: ScopeBudget, at: number, entries: number, extraBytes: number) => {
    const storeFits = () => records.size + entries <= maxEntries && bytes + extraBytes <= maxBytes;
    const scopeFits = () =>
      budget.records.size + entries <= scopeEntries && budget.bytes + extraBytes <= scopeBytes;
    const enough = () => scopeFits() && (entries === 0 || storeFits());
    if (entries > 0) sweep(at, SWEEP_PER_CLAIM);
    if (enough()) return;
    if (entries > 0 && !storeFits()) sweep(at, SWEEP_WHEN_FULL);
    // At most one lap over the principal's own records, dropping expired and completed ones, oldest
    // first. Unfinished claims are never dropped: that would let a second request run.
    const own = budget.records;
    for (let looked = 0, size = own.size; looked < size && !enough(); looked++) {
      let step = budget.evictCursor.next();
      if (step.done === true) {
        budget.evictCursor = own.values();
        step = budget.evictCursor.next();
        if (step.done === true) break;
      }
      if (step.value.expiresAt <= at || step.value.token === undefined) remove(step.value);
    }
    if (enough()) return;
    // The principal's share is the whole store when the per-principal caps are not lower.
    if (entries > 0 ? !storeFits() : budget.bytes + extraBytes > maxBytes) {
      throw new IdempotencyStoreError(
        "ERR_IDEMPOTENCY_STORE_FULL",
        `the memory idempotency store is full (maxEntries ${maxEntries}, maxBytes ${maxBytes}) and this principal has no completed record of its own to drop; retry later`,
      );
    }
    throw new IdempotencyStoreError(
      "ERR_IDEMPOTENCY_QUOTA_EXCEEDED",
      `this principal's share of the memory idempotency store (maxEntriesPerScope ${maxEntriesPerScope}, maxBytesPerScope ${maxBytesPerScope}) cannot hold the record beside its unfinished requests; retry when they finish`,
    );
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
      const size = sizeOf({ id, fingerprint: claim.fingerprint, token: claim.token, response: undefined });
      makeRoom(budgetOf(claim.scope), at, 1, size);
      // Making room may have dropped the principal's last record, and its budget with it.
      const budget = budgetOf(claim.scope);
      const record: MemoryRecord = {
        id,
        budget,
        fingerprint: claim.fingerprint,
        token: claim.token,
        response: undefined,
        expiresAt: at + claim.leaseMs,
        size,
      };
      records.set(id, record);
      budget.records.set(id, record);
      bytes += size;
      budget.bytes += size;
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
      // `at`, so its budget stays too), then the record becomes the completed one.
      makeRoom(record.budget, at, 0, size - record.size);
      record.token = undefined;
      record.response = copy;
      record.expiresAt = at + retentionMs;
      bytes += size - record.size;
      record.budget.bytes += size - record.size;
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
      budgets.clear();
      sweepCursor = records.values();
      bytes = 0;
    },
  };
}

function wholeNumberOption(value: number | undefined, fallback: number, name: string): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 1) {
    throw new TypeError(`createMemoryIdempotencyStore: ${name} must be a whole number >= 1`);
  }
  return chosen;
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
