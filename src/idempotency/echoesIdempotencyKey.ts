import { IDEMPOTENCY_KEY_META } from "./idempotencyKey.js";

/**
 * Tells whether a response echoes the idempotency key that was sent (spec 4.1, rule 2): the
 * returned event resource carries it in `data.meta["idempotency-key"]`. Accepts the response
 * document or its `data`. Never throws.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { echoesIdempotencyKey } from "messaging-events/idempotency";
 *
 * const response = { data: { id: "01JD8X", type: "events", meta: { "idempotency-key": "order-42" } } };
 * echoesIdempotencyKey(response, "order-42"); // true
 * ```
 */
export function echoesIdempotencyKey(response: unknown, key: string): boolean {
  try {
    const resource = (response as { data?: unknown })?.data ?? response;
    const meta = (resource as { meta?: Record<string, unknown> } | undefined)?.meta;
    return typeof meta === "object" && meta !== null && meta[IDEMPOTENCY_KEY_META] === key;
  } catch {
    return false;
  }
}
