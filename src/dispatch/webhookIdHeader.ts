/**
 * The name of the header that carries a delivery's id: one id per (event, endpoint), the same on
 * every attempt of that delivery, and **not** covered by the signature (the signature covers
 * `service-timestamp` and the body). Delivery is at least once, so a receiver should remember the
 * ids it has processed and acknowledge a repeated one without processing it again.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { WEBHOOK_ID_HEADER } from "messaging-events/dispatch";
 *
 * const seen = new Set<string>();
 * function isDuplicate(request: Request): boolean {
 *   const id = request.headers.get(WEBHOOK_ID_HEADER);
 *   if (id === null || !seen.has(id)) {
 *     if (id !== null) seen.add(id);
 *     return false;
 *   }
 *   return true;
 * }
 * ```
 */
export const WEBHOOK_ID_HEADER = "service-webhook-id";
