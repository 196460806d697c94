import { booleanValue } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.user.setting`: one required boolean, `value` (the value of a user's setting for the room).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomUserSettingContent } from "messaging-events/events";
 *
 * roomUserSettingContent.parse({ value: true }); // { value: true }
 * ```
 */
export const roomUserSettingContent = /* @__PURE__ */ booleanValue();
