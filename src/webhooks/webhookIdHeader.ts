/**
 * The name of the header that carries a delivery's id: one id per (event, endpoint), the same on
 * every attempt of that delivery, and **not** covered by the signature (the signature covers
 * `service-timestamp` and the body). Delivery is at least once: `createWebhookReceiver` keys its
 * replay store on this id, so that a retried delivery is handled until it succeeds, and once.
 *
 * Exported from `messaging-events/webhooks`, `messaging-events/dispatch` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { WEBHOOK_ID_HEADER } from "messaging-events/webhooks";
 *
 * const deliveryIdOf = (request: Request) => request.headers.get(WEBHOOK_ID_HEADER) ?? undefined;
 * ```
 */
export const WEBHOOK_ID_HEADER = "service-webhook-id";
