import * as z from "zod/mini";

/**
 * Content schema of `s.invitation`: `roomId` and `inviterId` (strings, required).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { invitationContent } from "messaging-events/events";
 *
 * invitationContent.parse({ roomId: "room-1", inviterId: "user-7" });
 * ```
 */
export const invitationContent = /* @__PURE__ */ z.strictObject({
  roomId: z.string(),
  inviterId: z.string(),
});
