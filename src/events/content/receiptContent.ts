import { emptyObject } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.receipt`: an object with no properties, so only `{}` is accepted.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { receiptContent } from "messaging-events/events";
 *
 * receiptContent.safeParse({}).success; // true
 * receiptContent.safeParse({ extra: 1 }).success; // false
 * ```
 */
export const receiptContent = /* @__PURE__ */ emptyObject();
