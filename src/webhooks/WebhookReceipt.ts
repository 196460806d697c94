import type { WebhookStatus, WebhookVerificationError } from "./WebhookVerificationError.js";

/**
 * The answer to one webhook, for frameworks that write their own responses: the status, the
 * headers and the body text (empty for 204).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookReceipt } from "messaging-events/webhooks";
 *
 * const toResponse = (receipt: WebhookReceipt) =>
 *   new Response(receipt.body || null, { status: receipt.status, headers: receipt.headers });
 * ```
 */
export interface WebhookReceipt {
  /** 204 when processed (now or before); otherwise the error's status. */
  readonly status: WebhookStatus;
  /** `content-type` for a body; `retry-after` (seconds) with 409 and 503. */
  readonly headers: Readonly<Record<string, string>>;
  /** `{"code":"ERR_WEBHOOK_…","message":"…"}`, or `""` for 204. */
  readonly body: string;
  /** Why the webhook was not processed, for any status but 204. */
  readonly error: WebhookVerificationError | undefined;
}
