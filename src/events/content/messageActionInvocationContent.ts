import * as z from "zod/mini";
import { boundedArray } from "../../internal/boundedArray.js";

/**
 * Content schema of `s.message.action.invocation` (a user's answer to an action): `value`, which is
 * a string, a finite number or an array of strings (possibly empty), and `label`
 * (string or `null`, optional).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageActionInvocationContent } from "messaging-events/events";
 *
 * messageActionInvocationContent.parse({ value: ["red", "blue"], label: "Colours" });
 * messageActionInvocationContent.parse({ value: 42 });
 * ```
 */
export const messageActionInvocationContent = /* @__PURE__ */ z.strictObject({
  value: z.union([z.string(), z.number(), boundedArray(z.string())]),
  label: z.optional(z.nullable(z.string())),
});
