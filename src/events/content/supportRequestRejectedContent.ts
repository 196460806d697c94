import * as z from "zod/mini";

/**
 * Content schema of `s.support.request.rejected`: `reason`, one of `NO_OPERATOR_AVAILABLE`,
 * `OUTSIDE_BUSINESS_HOURS`, `SERVER_ERROR` (required).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { supportRequestRejectedContent } from "messaging-events/events";
 *
 * supportRequestRejectedContent.parse({ reason: "OUTSIDE_BUSINESS_HOURS" });
 * ```
 */
export const supportRequestRejectedContent = /* @__PURE__ */ z.strictObject({
  reason: z.enum(["NO_OPERATOR_AVAILABLE", "OUTSIDE_BUSINESS_HOURS", "SERVER_ERROR"]),
});
