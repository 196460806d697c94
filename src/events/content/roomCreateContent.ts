import * as z from "zod/mini";

/**
 * Content schema of `s.room.create`: `creatorId` (string, required).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomCreateContent } from "messaging-events/events";
 *
 * roomCreateContent.parse({ creatorId: "user-7" });
 * ```
 */
export const roomCreateContent = /* @__PURE__ */ z.strictObject({
  creatorId: z.string(),
});
