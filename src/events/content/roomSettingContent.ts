import { booleanValue } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.setting`: one required boolean, `value` (the value of a room setting).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomSettingContent } from "messaging-events/events";
 *
 * roomSettingContent.parse({ value: true }); // { value: true }
 * ```
 */
export const roomSettingContent = /* @__PURE__ */ booleanValue();
