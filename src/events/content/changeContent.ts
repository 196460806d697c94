import * as z from "zod/mini";

/**
 * Content schema of `s.change` (scope Global): `id` and `type` (strings, required) and an optional
 * `relationship` string. No other properties.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { changeContent } from "messaging-events/events";
 *
 * const result = changeContent.safeParse({ id: "01JD8X", type: "room" });
 * console.log(result.success); // true
 * ```
 */
export const changeContent = /* @__PURE__ */ z.strictObject({
  id: z.string(),
  type: z.string(),
  relationship: z.optional(z.string()),
});
