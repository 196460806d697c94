import * as z from "zod/mini";

/**
 * Content schema of `s.form`: `formId` (a non-empty string, required) and `inline` (boolean,
 * optional).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { formContent } from "messaging-events/events";
 *
 * formContent.safeParse({ formId: "feedback", inline: true }).success; // true
 * formContent.safeParse({ formId: "" }).success; // false: formId has minLength 1
 * ```
 */
export const formContent = /* @__PURE__ */ z.strictObject({
  formId: z.string().check(z.minLength(1)),
  inline: z.optional(z.boolean()),
});
