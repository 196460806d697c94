import { emptyObject } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.support.inactive`: an object with no properties, so only `{}` is accepted.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { supportInactiveContent } from "messaging-events/events";
 *
 * supportInactiveContent.safeParse({}).success; // true
 * supportInactiveContent.safeParse({ extra: 1 }).success; // false
 * ```
 */
export const supportInactiveContent = /* @__PURE__ */ emptyObject();
