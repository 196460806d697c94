import * as z from "zod/mini";

/**
 * Content schema of `s.message.action.invocation.validation`: `result` (`SUCCESS` or `FAILURE`,
 * required) and `reason` (string, optional).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageActionInvocationValidationContent } from "messaging-events/events";
 *
 * messageActionInvocationValidationContent.parse({ result: "FAILURE", reason: "Pick a date in the future" });
 * ```
 */
export const messageActionInvocationValidationContent = /* @__PURE__ */ z.strictObject({
  result: z.enum(["SUCCESS", "FAILURE"]),
  reason: z.optional(z.string()),
});
