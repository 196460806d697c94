import { booleanValue } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.pin`: one required boolean, `value` (whether the room is pinned).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomPinContent } from "messaging-events/events";
 *
 * roomPinContent.parse({ value: true }); // { value: true }
 * ```
 */
export const roomPinContent = /* @__PURE__ */ booleanValue();
