import * as z from "zod/mini";

/**
 * Content schema of `s.support.delegate`: `type` (`Agent` or `CRM`, required) and `agentId` (a
 * non-empty string or `null`, optional).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { supportDelegateContent } from "messaging-events/events";
 *
 * supportDelegateContent.parse({ type: "Agent", agentId: "agent-3" });
 * supportDelegateContent.parse({ type: "CRM", agentId: null });
 * ```
 */
export const supportDelegateContent = /* @__PURE__ */ z.strictObject({
  type: z.enum(["Agent", "CRM"]),
  agentId: z.optional(z.nullable(z.string().check(z.minLength(1)))),
});
