import { emptyObject } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.room.close`: an object with no properties, so only `{}` is accepted.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { roomCloseContent } from "messaging-events/events";
 *
 * roomCloseContent.safeParse({}).success; // true
 * roomCloseContent.safeParse({ extra: 1 }).success; // false
 * ```
 */
export const roomCloseContent = /* @__PURE__ */ emptyObject();
