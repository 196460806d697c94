import { createMemoryReplayStore } from "./createMemoryReplayStore.js";
import type { ReplayStore } from "./ReplayStore.js";

/**
 * The options of {@link createWebhookReplayGuard}.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createMemoryReplayStore, type WebhookReplayGuardOptions } from "messaging-events/server";
 *
 * const options: WebhookReplayGuardOptions = { store: createMemoryReplayStore(), toleranceSeconds: 300 };
 * ```
 */
export interface WebhookReplayGuardOptions {
  /**
   * Where accepted signatures and delivery ids are remembered; share one (Redis) between receiver
   * processes.
   * @default createMemoryReplayStore() (closed with the guard)
   */
  readonly store?: ReplayStore;
  /**
   * The verifier's timestamp tolerance, in seconds: a signature is remembered until its timestamp
   * plus this, after which the verifier refuses it anyway.
   * @default 300
   */
  readonly toleranceSeconds?: number;
  /**
   * How long a `service-webhook-id` is remembered, in milliseconds: longer than the sender retries.
   * @default 172800000 (48 hours)
   */
  readonly deliveryRetentionMs?: number;
}

/**
 * Remembers what a webhook receiver accepted, so that the same request or the same delivery is
 * acted on once: see {@link createWebhookReplayGuard}.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createWebhookReplayGuard, type WebhookReplayGuard } from "messaging-events/server";
 *
 * const guard: WebhookReplayGuard = createWebhookReplayGuard();
 * await guard.close();
 * ```
 */
export interface WebhookReplayGuard {
  /**
   * `true` the first time a verified signature (the MAC as lowercase hex) is seen inside its window,
   * `false` for a replay of the same signed request.
   */
  acceptSignature(verified: { readonly signature: string; readonly timestamp: Date }): Promise<boolean>;
  /**
   * `true` the first time a delivery id (`service-webhook-id`) is seen, `false` for a redelivery
   * (a retry carries a new timestamp and signature but the same id). Throws a `TypeError` for an id
   * that is not 1 to 256 characters.
   */
  acceptDelivery(webhookId: string): Promise<boolean>;
  /** Closes the store it created (never one you passed in). Idempotent. */
  close(): Promise<void>;
}

const MAX_ID_LENGTH = 256;

/**
 * Creates a guard against webhook replays and redeliveries, on a shared {@link ReplayStore}:
 *
 * - `acceptSignature(verified)` remembers each accepted signature until its timestamp window closes,
 *   so a second delivery of the same signed request inside the window is refused (outside it, the
 *   verifier already refuses it);
 * - `acceptDelivery(id)` remembers each `service-webhook-id`, so a retried delivery (new timestamp,
 *   new signature, same id) is recognised and can be acknowledged without acting twice.
 *
 * Call them after verification; when two receivers race with the same value, exactly one gets `true`.
 * A store failure rejects (answer 5xx so that the sender retries).
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createWebhookReplayGuard } from "messaging-events/server";
 *
 * const guard = createWebhookReplayGuard({ toleranceSeconds: 300 });
 * const verified = { signature: "ab".repeat(64), timestamp: new Date() };
 * console.log(await guard.acceptSignature(verified)); // true
 * console.log(await guard.acceptSignature(verified)); // false: a replay
 * console.log(await guard.acceptDelivery("whd_1"), await guard.acceptDelivery("whd_1")); // true false
 * await guard.close();
 * ```
 */
export function createWebhookReplayGuard(options: WebhookReplayGuardOptions = {}): WebhookReplayGuard {
  const { toleranceSeconds = 300, deliveryRetentionMs = 48 * 60 * 60 * 1000 } = options ?? {};
  if (typeof toleranceSeconds !== "number" || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError("createWebhookReplayGuard: toleranceSeconds must be a number >= 0");
  }
  if (!Number.isSafeInteger(deliveryRetentionMs) || deliveryRetentionMs < 1) {
    throw new TypeError("createWebhookReplayGuard: deliveryRetentionMs must be a whole number >= 1");
  }
  const given = options?.store;
  if (
    given !== undefined &&
    (typeof given?.rememberOnce !== "function" || typeof given?.close !== "function")
  ) {
    throw new TypeError("createWebhookReplayGuard: store must implement ReplayStore (rememberOnce, close)");
  }
  const store = given ?? createMemoryReplayStore();
  let closed: Promise<void> | undefined;
  return {
    async acceptSignature(verified) {
      const signature = verified?.signature;
      const time = verified?.timestamp instanceof Date ? verified.timestamp.getTime() : Number.NaN;
      if (typeof signature !== "string" || !/^[0-9a-f]{128}$/.test(signature) || Number.isNaN(time)) {
        throw new TypeError(
          "acceptSignature: pass a verified webhook: { signature (128 hex digits), timestamp }",
        );
      }
      // One second more than the window, so that no rounding lets a replay in at its very edge.
      return store.rememberOnce(`signature:${signature}`, time + toleranceSeconds * 1000 + 1000);
    },
    async acceptDelivery(webhookId) {
      if (typeof webhookId !== "string" || webhookId.length === 0 || webhookId.length > MAX_ID_LENGTH) {
        throw new TypeError(
          `acceptDelivery: the webhook id must be a string of 1 to ${MAX_ID_LENGTH} characters`,
        );
      }
      return store.rememberOnce(`delivery:${webhookId}`, Date.now() + deliveryRetentionMs);
    },
    close() {
      closed ??= given === undefined ? store.close() : Promise.resolve();
      return closed;
    },
  };
}
