import * as z from "zod/mini";
import { TRIGGERS } from "../../internal/contentFactories.js";

/**
 * Content schema of `s.support.close`: `trigger` (`Auto` or `Manual`, optional).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { supportCloseContent } from "messaging-events/events";
 *
 * supportCloseContent.parse({ trigger: "Manual" });
 * supportCloseContent.parse({});
 * ```
 */
export const supportCloseContent = /* @__PURE__ */ z.strictObject({
  trigger: z.optional(z.enum(TRIGGERS)),
});
