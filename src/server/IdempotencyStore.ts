/**
 * A response kept for replay: the status, the headers in order and the body text, exactly as first sent.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { StoredResponse } from "messaging-events/server";
 *
 * const response: StoredResponse = {
 *   status: 201,
 *   headers: [["content-type", "application/vnd.api+json"]],
 *   body: '{"data":{"id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","type":"events"}}',
 * };
 * ```
 */
export interface StoredResponse {
  /** The HTTP status. */
  readonly status: number;
  /** The header names (lowercase) and values, in the order they were sent. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body, as text. */
  readonly body: string;
}

/**
 * What identifies one idempotent request in an {@link IdempotencyStore}: who sent it (`scope`, the
 * principal), its key, and the owner `token` of the request holding it. Every change after the claim
 * names the token, and a store applies it only while that token still owns the key.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { IdempotencyRecordRef } from "messaging-events/server";
 *
 * const ref: IdempotencyRecordRef = { scope: "tenant-7", key: "order-42", token: crypto.randomUUID() };
 * ```
 */
export interface IdempotencyRecordRef {
  /** The principal the key belongs to: keys of different principals never meet. */
  readonly scope: string;
  /** The idempotency key, as the client sent it. */
  readonly key: string;
  /** A random value that names the holder; only the holder may extend, complete or release. */
  readonly token: string;
}

/**
 * The argument of {@link IdempotencyStore.claim}.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { IdempotencyClaim } from "messaging-events/server";
 *
 * const claim: IdempotencyClaim = {
 *   scope: "tenant-7",
 *   key: "order-42",
 *   token: crypto.randomUUID(),
 *   fingerprint: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
 *   leaseMs: 30_000,
 * };
 * ```
 */
export interface IdempotencyClaim extends IdempotencyRecordRef {
  /** A hash of the request document; the same key with another fingerprint is a misuse. */
  readonly fingerprint: string;
  /** How long the claim holds without being extended, in milliseconds. */
  readonly leaseMs: number;
}

/**
 * What {@link IdempotencyStore.claim} found:
 *
 * - `claimed`: the key was free (or its holder's lease had run out) and now belongs to the caller;
 * - `in-flight`: another request holds the key with the same document and has not finished;
 * - `completed`: a request with the same document finished; `response` is what it answered;
 * - `mismatch`: the key is held or was completed for a different document.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { ClaimResult } from "messaging-events/server";
 *
 * function describe(result: ClaimResult): string {
 *   return result.status === "completed" ? `replay ${result.response.status}` : result.status;
 * }
 * ```
 */
export type ClaimResult =
  | { readonly status: "claimed" }
  | { readonly status: "in-flight" }
  | { readonly status: "completed"; readonly response: StoredResponse }
  | { readonly status: "mismatch" };

/**
 * Where the events handler keeps idempotency records: a small interface that any shared store can
 * implement (the library ships a memory store and a Redis store). The rules every implementation keeps:
 *
 * - `claim` is atomic: of any number of concurrent claims of a free key, exactly one gets `claimed`;
 *   a claim whose lease has run out without being extended counts as free;
 * - `extend`, `complete` and `release` are compare-and-set operations on the owner token: they change
 *   the record only while the token still owns an unfinished claim, and resolve to `false` otherwise
 *   (a holder that lost its lease can never overwrite the record of the request that took over);
 * - a completed record keeps its fingerprint and response for `retentionMs`, then disappears;
 * - methods reject (never hang forever) when the store cannot be reached; `close()` is idempotent and
 *   any call after it rejects.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createMemoryIdempotencyStore, type IdempotencyStore } from "messaging-events/server";
 *
 * const store: IdempotencyStore = createMemoryIdempotencyStore();
 * const ref = { scope: "tenant-7", key: "order-42", token: crypto.randomUUID() };
 * const claim = await store.claim({ ...ref, fingerprint: "f1", leaseMs: 30_000 });
 * if (claim.status === "claimed") {
 *   await store.complete(ref, { status: 201, headers: [], body: "{}" }, 86_400_000);
 * }
 * await store.close();
 * ```
 */
export interface IdempotencyStore {
  /** Claims the key for the token, or tells what holds it. */
  claim(claim: IdempotencyClaim): Promise<ClaimResult>;
  /** Pushes the lease of an unfinished claim to `leaseMs` from now; `false` when the token lost it. */
  extend(ref: IdempotencyRecordRef, leaseMs: number): Promise<boolean>;
  /** Stores the response for `retentionMs`; `false` when the token no longer holds the key. */
  complete(ref: IdempotencyRecordRef, response: StoredResponse, retentionMs: number): Promise<boolean>;
  /** Frees the key (nothing is kept); `false` when the token no longer holds it. */
  release(ref: IdempotencyRecordRef): Promise<boolean>;
  /** Releases what the store holds (timers, not a client you passed in). Idempotent. */
  close(): Promise<void>;
}
