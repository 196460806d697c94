import { emptyObject } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.typing`: an object with no properties, so only `{}` is accepted.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomTypingContent } from "messaging-events/events";
 *
 * roomTypingContent.safeParse({}).success; // true
 * roomTypingContent.safeParse({ extra: 1 }).success; // false
 * ```
 */
export const roomTypingContent = /* @__PURE__ */ emptyObject();
