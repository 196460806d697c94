import * as z from "zod/mini";
import { ASSIGNEES, TRIGGERS } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.membership`, a discriminated union on `membership`:
 *
 * - `join`: optional `initiatorId` (string), `sticky` (boolean), `assignee` (`Agent` or `Bot`),
 *   `trigger` (`Auto` or `Manual`);
 * - `leave`: optional `assignee` and `trigger`;
 * - `invite`: `inviteeId` (string, required).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomMembershipContent } from "messaging-events/events";
 *
 * const membership = roomMembershipContent.parse({ membership: "invite", inviteeId: "user-9" });
 * if (membership.membership === "invite") console.log(membership.inviteeId);
 * ```
 */
export const roomMembershipContent = /* @__PURE__ */ z.discriminatedUnion("membership", [
  z.strictObject({
    membership: z.literal("join"),
    initiatorId: z.optional(z.string()),
    sticky: z.optional(z.boolean()),
    assignee: z.optional(z.enum(ASSIGNEES)),
    trigger: z.optional(z.enum(TRIGGERS)),
  }),
  z.strictObject({
    membership: z.literal("leave"),
    assignee: z.optional(z.enum(ASSIGNEES)),
    trigger: z.optional(z.enum(TRIGGERS)),
  }),
  z.strictObject({
    membership: z.literal("invite"),
    inviteeId: z.string(),
  }),
]);
