/**
 * What the verifiers need to refuse a replay of a signed request inside the timestamp window:
 * something that accepts each verified signature once (`createWebhookReplayGuard` from
 * `messaging-events/server` is one, on memory or Redis). Pass it as `replayGuard`; a second delivery
 * of the same signed request then fails with `ERR_WEBHOOK_REPLAYED`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookReplayCheck } from "messaging-events/webhooks";
 *
 * const seen = new Set<string>();
 * const replayGuard: WebhookReplayCheck = {
 *   acceptSignature: ({ signature }) => !seen.has(signature) && Boolean(seen.add(signature)),
 * };
 * ```
 */
export interface WebhookReplayCheck {
  /**
   * `true` the first time a verified signature (the MAC as 128 lowercase hex digits) is seen,
   * `false` for a replay. A rejection is reported as `ERR_WEBHOOK_REPLAY_CHECK_FAILED`.
   */
  acceptSignature(verified: {
    readonly signature: string;
    readonly timestamp: Date;
  }): Promise<boolean> | boolean;
}
