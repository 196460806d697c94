import * as z from "zod/mini";

/**
 * Content schema of `s.mention`: `eventId` (string, required).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { mentionContent } from "messaging-events/events";
 *
 * mentionContent.parse({ eventId: "01JD8X5Q" });
 * ```
 */
export const mentionContent = /* @__PURE__ */ z.strictObject({
  eventId: z.string(),
});
