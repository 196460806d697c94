import { emptyObject } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.message.preview.track`: an object with no properties, so only `{}` is accepted.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messagePreviewTrackContent } from "messaging-events/events";
 *
 * messagePreviewTrackContent.safeParse({}).success; // true
 * messagePreviewTrackContent.safeParse({ extra: 1 }).success; // false
 * ```
 */
export const messagePreviewTrackContent = /* @__PURE__ */ emptyObject();
