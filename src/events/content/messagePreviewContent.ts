import * as z from "zod/mini";
import { extrasAreJson } from "../../internal/extrasAreJson.js";

/**
 * Content schema of `s.message.preview` (a link preview): `url` (string, required) and the optional
 * strings `title`, `author`, `description`, `image` and `fileId`. Additional properties are
 * allowed and kept.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messagePreviewContent } from "messaging-events/events";
 *
 * messagePreviewContent.parse({ url: "https://example.com", title: "Example Domain" });
 * ```
 */
export const messagePreviewContent = /* @__PURE__ */ z
  .looseObject({
    url: z.string(),
    title: z.optional(z.string()),
    author: z.optional(z.string()),
    description: z.optional(z.string()),
    image: z.optional(z.string()),
    fileId: z.optional(z.string()),
  })
  .check(extrasAreJson());
