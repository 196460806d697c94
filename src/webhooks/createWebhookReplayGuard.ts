import { LeaseKeeper } from "../internal/leaseKeeper.js";
import { TimedOut, timeBoxed } from "../internal/timeBoxed.js";
import type { IdempotencyRecordRef, IdempotencyStore } from "../server/IdempotencyStore.js";
import {
  type NormalizedReplayGuardOptions,
  normalizeReplayGuardOptions,
} from "./normalizeReceiverOptions.js";
import type { WebhookReplayGuardOptions } from "./WebhookReceiverOptions.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";

/**
 * What {@link WebhookReplayGuard.claim} found:
 *
 * - `claimed`: this request now holds the delivery (its lease is renewed while you work, and
 *   `signal` aborts if it is lost): run the handler, then `complete()` on success or `release()` on
 *   failure, so that the sender's retry runs it again;
 * - `in-progress`: another request holds the same delivery right now: answer 409 with
 *   `Retry-After` (`retryAfterMs`), never 2xx, since it may still fail;
 * - `processed`: this delivery id was completed before: answer 204 without running the handler;
 * - `replayed`: the exact signed request was processed before, under another delivery id or none
 *   (an exact replay inside the tolerance window): refuse it.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookClaim } from "messaging-events/webhooks";
 *
 * const statusOf = (claim: WebhookClaim) =>
 *   claim.status === "processed" ? 204 : claim.status === "in-progress" ? 409 : claim.status === "replayed" ? 401 : 0;
 * ```
 */
export type WebhookClaim =
  | {
      readonly status: "claimed";
      /** Aborts when the lease is lost (another process took the delivery over) or the guard closes. */
      readonly signal: AbortSignal;
      /**
       * Marks the delivery processed, kept `retentionMs` (a delivery id) or until its window ends (a
       * signature). Resolves to `false` when the lease had been lost and another request took over;
       * rejects with `ERR_WEBHOOK_STORE_UNAVAILABLE` when the store cannot answer.
       */
      complete(): Promise<boolean>;
      /**
       * Frees the delivery, so that the sender's retry is handled. Rejects with
       * `ERR_WEBHOOK_STORE_UNAVAILABLE` when the store cannot answer (the lease then frees it).
       */
      release(): Promise<void>;
    }
  | { readonly status: "in-progress"; readonly retryAfterMs: number }
  | { readonly status: "processed" }
  | { readonly status: "replayed" };

/**
 * The low-level claim that `createWebhookReceiver` is built on: see {@link createWebhookReplayGuard}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookReplayGuard, type WebhookReplayGuard } from "messaging-events/webhooks";
 *
 * const guard: WebhookReplayGuard = createWebhookReplayGuard();
 * await guard.close();
 * ```
 */
export interface WebhookReplayGuard {
  /**
   * Claims a verified webhook: by its delivery id (`service-webhook-id`) when it has one, and by its
   * signature until `expiresAt` (which refuses exact replays). Rejects with a
   * `WebhookVerificationError`: `ERR_WEBHOOK_ID_INVALID` for an id that is not 1 to 256 visible
   * ASCII characters, `ERR_WEBHOOK_STORE_UNAVAILABLE` when the store fails or does not answer
   * within `storeTimeoutMs`.
   */
  claim(
    verified: { readonly signature: string; readonly expiresAt: Date },
    deliveryId?: string,
  ): Promise<WebhookClaim>;
  /** Stops renewing leases (their signals abort) and closes the store it created (never one you passed in). Idempotent. */
  close(): Promise<void>;
}

/** Where the guard's records live in a shared store: apart from every principal's idempotency keys. */
const SCOPE = "\u0000webhooks";
const FINGERPRINT = "webhook";
const PROCESSED = Object.freeze({ status: 204, headers: [], body: "" });

/** What a store's claim may answer. */
type ClaimStatus = Awaited<ReturnType<IdempotencyStore["claim"]>>["status"];
const CLAIM_STATUSES: ReadonlySet<string> = new Set<ClaimStatus>([
  "claimed",
  "completed",
  "in-flight",
  "mismatch",
]);

const unavailable = (cause: unknown) =>
  new WebhookVerificationError(
    "ERR_WEBHOOK_STORE_UNAVAILABLE",
    cause instanceof TimedOut
      ? `the replay store did not answer in time (${cause.message.replace(/^did not answer /, "")}): retry later`
      : "the replay store could not answer (see cause): retry later",
    { cause },
  );

/** @internal A delivery id: 1 to 256 visible ASCII characters (no space, no comma: a repeated header is refused). */
export const isDeliveryId = (value: unknown): value is string =>
  typeof value === "string" && /^[\x21-\x2b\x2d-\x7e]{1,256}$/.test(value);

/**
 * Creates the claim that makes webhook processing exactly-once in effect, on an idempotency store
 * (memory by default; share a Redis one between receiver processes): a delivery counts as
 * processed only when your code completes it. Most receivers want `createWebhookReceiver`, which
 * does all of this; use the guard when you verify and answer yourself.
 *
 * - A webhook with a delivery id is claimed by that id: its retries (new timestamp and signature,
 *   same id) find it `processed` once completed, `in-progress` while another request holds it, and
 *   free again once released.
 * - Every webhook is also claimed by its signature until the end of its tolerance window (the
 *   verifier's, carried by the verified result as `expiresAt`: there is no second window): the id is
 *   not signed, so an exact replay under another id, or without one, is `replayed`. Without an id,
 *   this is the only de-duplication: a resend that was signed again is a new webhook.
 * - A claim is a lease (`leaseMs`), renewed while you work: if the process dies, the delivery is free
 *   again once the lease runs out, and the old holder can no longer complete it.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookReplayGuard, createWebhookRequest, safeVerifyWebhookRequest, WEBHOOK_ID_HEADER } from "messaging-events/webhooks";
 *
 * const guard = createWebhookReplayGuard();
 * const request = await createWebhookRequest("https://example.com/hooks", {
 *   payload: { type: "s.room.close", version: 2, content: {} },
 *   secret: "s3cr3t",
 * });
 * request.headers.set(WEBHOOK_ID_HEADER, "delivery-1");
 * const result = await safeVerifyWebhookRequest(request, { secret: "s3cr3t" });
 * if (result.success) {
 *   const claim = await guard.claim(result, request.headers.get(WEBHOOK_ID_HEADER) ?? undefined);
 *   if (claim.status === "claimed") {
 *     try {
 *       console.log("handling", result.data.type);
 *       await claim.complete(); // answer 204
 *     } catch (error) {
 *       await claim.release(); // answer 500: the sender retries
 *     }
 *   }
 * }
 * await guard.close();
 * ```
 */
export function createWebhookReplayGuard(options: WebhookReplayGuardOptions = {}): WebhookReplayGuard {
  return replayGuardOf(normalizeReplayGuardOptions(options, "createWebhookReplayGuard"));
}

/** @internal The guard over checked options (the receiver checks them with its own). */
export function replayGuardOf(settings: NormalizedReplayGuardOptions): WebhookReplayGuard {
  const { store, leaseMs, retentionMs, storeTimeoutMs } = settings;
  const call = <T>(run: (store: IdempotencyStore) => Promise<T>, onLate?: (value: T) => void) =>
    timeBoxed(storeTimeoutMs, () => run(store), onLate).catch((cause: unknown) => {
      throw unavailable(cause);
    });
  /** A claim's answer, or unavailable when the store answered what no store may (a bug, a foreign record). */
  const claimed = (answer: unknown): ClaimStatus => {
    const status = (answer as { status?: unknown } | null | undefined)?.status;
    if (typeof status === "string" && CLAIM_STATUSES.has(status)) return status as ClaimStatus;
    throw unavailable(new Error("the store answered a claim with something other than a claim result"));
  };
  const leases = new LeaseKeeper<IdempotencyRecordRef>(leaseMs, (ref) =>
    timeBoxed(storeTimeoutMs, () => store.extend(ref, leaseMs)),
  );
  const running = new Set<AbortController>();
  let closed: Promise<void> | undefined;

  return {
    async claim(verified, deliveryId) {
      if (closed) throw unavailable(new Error("the replay guard is closed"));
      let signature: unknown;
      let expiresAt = Number.NaN;
      try {
        signature = verified.signature;
        expiresAt = Date.prototype.getTime.call(verified.expiresAt);
      } catch {
        // Not a verified result: refused below.
      }
      if (typeof signature !== "string" || !/^[0-9a-f]{128}$/.test(signature) || Number.isNaN(expiresAt)) {
        throw new WebhookVerificationError(
          "ERR_WEBHOOK_INVALID_INPUT",
          "claim: pass a verified result ({ signature, expiresAt }, as safeVerifyWebhook gives it)",
        );
      }
      if (deliveryId !== undefined && !isDeliveryId(deliveryId)) {
        throw new WebhookVerificationError(
          "ERR_WEBHOOK_ID_INVALID",
          `"service-webhook-id" must be 1 to 256 visible ASCII characters without a comma`,
        );
      }
      const token = crypto.randomUUID();
      const claimRef = (ref: IdempotencyRecordRef, fingerprint: string) =>
        call(
          (s) => s.claim({ ...ref, fingerprint, leaseMs }),
          // A claim that lands after its caller was told 503 must not hold the delivery for a lease.
          (late) => {
            if (late.status === "claimed") store.release(ref).catch(() => undefined);
          },
        );
      // The signature is claimed whatever the id: an exact replay under another id (the id is not
      // signed) or with one added or removed is a replay. Its fingerprint names the id it came with.
      const bySignature: IdempotencyRecordRef = { scope: SCOPE, key: `signature:${signature}`, token };
      const byId: IdempotencyRecordRef | undefined =
        deliveryId === undefined ? undefined : { scope: SCOPE, key: `delivery:${deliveryId}`, token };
      const refs: IdempotencyRecordRef[] = [];
      if (byId) {
        switch (claimed(await claimRef(byId, FINGERPRINT))) {
          case "completed":
            return { status: "processed" };
          case "in-flight":
            return { status: "in-progress", retryAfterMs: leaseMs };
          case "mismatch":
            throw unavailable(new Error("the store holds another kind of record under this delivery's key"));
        }
        refs.push(byId);
      }
      let seen: ClaimStatus;
      try {
        seen = claimed(await claimRef(bySignature, `${FINGERPRINT}:${deliveryId ?? ""}`));
      } catch (error) {
        if (byId) await call((s) => s.release(byId)).catch(() => undefined);
        throw error;
      }
      if (seen !== "claimed") {
        if (byId) await call((s) => s.release(byId)).catch(() => undefined);
        if (seen === "in-flight") return { status: "in-progress", retryAfterMs: leaseMs };
        return seen === "completed" && byId ? { status: "processed" } : { status: "replayed" };
      }
      refs.push(bySignature);
      const lease = new AbortController();
      running.add(lease);
      const letGo = refs.map((ref) =>
        leases.keep(ref, () => lease.abort(new Error("the claim on this delivery was lost"))),
      );
      let done = false;
      const finish = () => {
        if (done) return false;
        done = true;
        for (const stop of letGo) stop();
        running.delete(lease);
        return true;
      };
      // A signature is refused by the verifier after its window anyway: keep it just past that.
      const windowMs = () => Math.max(1, Math.ceil(expiresAt - Date.now()) + 1000);
      return {
        status: "claimed",
        signal: lease.signal,
        async complete() {
          if (!finish()) return false;
          const results = await Promise.all(
            refs.map((ref) =>
              call((s) => s.complete(ref, PROCESSED, ref === byId ? retentionMs : windowMs())),
            ),
          );
          return results.every(Boolean);
        },
        async release() {
          if (!finish()) return;
          await Promise.all(refs.map((ref) => call((s) => s.release(ref))));
        },
      };
    },
    close() {
      closed ??= (async () => {
        leases.stop();
        for (const lease of running) lease.abort(new Error("the replay guard is closing"));
        running.clear();
        if (settings.ownsStore) await store.close();
      })();
      return closed;
    },
  };
}
