/**
 * A signing secret: a string (its UTF-8 bytes are the key) or the key bytes themselves (any
 * `ArrayBufferView` or `ArrayBuffer`). Never empty.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookSecret } from "messaging-events/webhooks";
 *
 * const fromText: WebhookSecret = "whsec_…";
 * const fromBytes: WebhookSecret = new Uint8Array([0x5e, 0x1f, 0x9a]);
 * ```
 */
export type WebhookSecret = string | ArrayBufferView | ArrayBufferLike;
