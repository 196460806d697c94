import { IDEMPOTENCY_KEY_META, isValidIdempotencyKey } from "./idempotencyKey.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const own = (record: Record<string, unknown>, name: string): unknown =>
  Object.hasOwn(record, name) ? record[name] : undefined;

/** The resource whose `meta` counts: the document's `data`, or the value itself when it is a bare resource. */
function resourceOf(response: unknown): Record<string, unknown> | undefined {
  if (!isRecord(response)) return undefined;
  if (Object.hasOwn(response, "data")) {
    const data = response.data;
    return isRecord(data) ? data : undefined;
  }
  const isResource =
    typeof own(response, "type") === "string" &&
    (Object.hasOwn(response, "id") || Object.hasOwn(response, "attributes"));
  return isResource ? response : undefined;
}

/**
 * Tells whether a response echoes the idempotency key that was sent: the returned event resource
 * must carry that very key in its own `meta["idempotency-key"]`. Accepts the response document (only
 * `data.meta` counts, never the document's top-level `meta`) or the resource itself (an object with
 * a `type` and an `id` or `attributes`). Answers `false` when `key` is not a valid idempotency key
 * (so nothing echoed never matches a missing key), and for anything else; never throws.
 *
 * Exported from `messaging-events/idempotency` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { echoesIdempotencyKey } from "messaging-events/idempotency";
 *
 * const response = { data: { id: "01JD8X", type: "events", meta: { "idempotency-key": "order-42" } } };
 * echoesIdempotencyKey(response, "order-42"); // true
 * echoesIdempotencyKey({ data: null, meta: { "idempotency-key": "order-42" } }, "order-42"); // false
 * ```
 */
export function echoesIdempotencyKey(response: unknown, key: string): boolean {
  try {
    if (!isValidIdempotencyKey(key)) return false;
    const resource = resourceOf(response);
    if (resource === undefined) return false;
    const meta = own(resource, "meta");
    return isRecord(meta) && own(meta, IDEMPOTENCY_KEY_META) === key;
  } catch {
    return false;
  }
}
