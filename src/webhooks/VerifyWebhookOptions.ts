import type { WebhookBody } from "./WebhookBody.js";
import type { WebhookHeaders } from "./WebhookHeaders.js";
import type { WebhookSecret } from "./WebhookSecret.js";

/**
 * What `verifyWebhook` (and `verifyWebhookSignature`) need, in one object: the raw body and the
 * headers exactly as received, and the signing secret (or several, during a rotation: any one may
 * match).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { VerifyWebhookOptions } from "messaging-events/webhooks";
 *
 * const options: VerifyWebhookOptions = {
 *   body: '{"type":"s.room.close","version":2,"content":{}}',
 *   headers: { "service-timestamp": "2026-11-22T18:00:00.000Z", "service-signature": "…" },
 *   secret: ["new-secret", "old-secret"],
 *   toleranceMs: 60_000,
 * };
 * ```
 */
export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received: never re-serialise it. */
  readonly body: WebhookBody;
  /** The request headers; names are matched case-insensitively. */
  readonly headers: WebhookHeaders;
  /**
   * The signing secret, or a list of at most 16 secrets of which any one may match (rotation); a
   * longer list is refused with `ERR_WEBHOOK_SECRET_INVALID` before any of it is read.
   */
  readonly secret: WebhookSecret | readonly WebhookSecret[];
  /**
   * How far `service-timestamp` may lie from `now`, in either direction, in milliseconds. The
   * window limits how long a captured request can be replayed; inside it, a replay verifies:
   * `createWebhookReceiver` refuses replays inside it for you.
   * @default 300_000 (5 minutes)
   */
  readonly toleranceMs?: number;
  /**
   * The current time, as a `Date` or epoch milliseconds, for tests and replays.
   * @default Date.now()
   */
  readonly now?: Date | number;
}
