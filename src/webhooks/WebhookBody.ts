/**
 * The raw request body, exactly as received: a string, or bytes: any `ArrayBufferView` (a
 * `Uint8Array`, Node's `Buffer`, a `DataView`…; exactly the bytes it views) or an `ArrayBuffer` /
 * `SharedArrayBuffer`. Never a parsed object: the signature covers the bytes. From a Fetch
 * `Request`, pass `await request.arrayBuffer()` or use `verifyWebhookRequest`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookBody } from "messaging-events/webhooks";
 *
 * const body: WebhookBody = new TextEncoder().encode('{"type":"s.room.close","version":2,"content":{}}');
 * ```
 */
export type WebhookBody = string | ArrayBufferView | ArrayBufferLike;
