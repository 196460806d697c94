import type * as z from "zod/mini";
import { jsonValue } from "../../internal/jsonValue.js";
import type { JsonValue } from "../JsonValue.js";

/**
 * Content schema of `s.delete`. The spec gives an empty schema, so any JSON value is accepted:
 * objects, arrays, strings, numbers, booleans and `null` ([types without constraints](https://github.com/messaging-events/messaging-events/blob/main/docs/readings.md#types-without-constraints)). `undefined`, functions,
 * non-finite numbers, class instances and circular references are not JSON and are rejected.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { deleteContent } from "messaging-events/events";
 *
 * deleteContent.parse({ messageId: "01JD8X" });
 * ```
 */
export const deleteContent: z.ZodMiniCustom<JsonValue, JsonValue> = /* @__PURE__ */ jsonValue<JsonValue>();
