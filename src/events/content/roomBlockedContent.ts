import { booleanValue } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.blocked`: one required boolean, `value` (whether the room is blocked).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomBlockedContent } from "messaging-events/events";
 *
 * roomBlockedContent.parse({ value: true }); // { value: true }
 * ```
 */
export const roomBlockedContent = /* @__PURE__ */ booleanValue();
