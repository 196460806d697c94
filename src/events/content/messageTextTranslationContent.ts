import * as z from "zod/mini";
import { maxCodePoints } from "../../internal/codePointLength.js";

/**
 * Content schema of `s.message.text.translation`: `body` (string, required), `format` (at most 100
 * code points, optional), `sourceLanguage` and `targetLanguage` (at most 2 code points each,
 * required). No other properties.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageTextTranslationContent } from "messaging-events/events";
 *
 * messageTextTranslationContent.parse({ body: "Hallo!", sourceLanguage: "en", targetLanguage: "de" });
 * ```
 */
export const messageTextTranslationContent = /* @__PURE__ */ z.strictObject({
  body: z.string(),
  format: z.optional(z.string().check(maxCodePoints(100))),
  sourceLanguage: z.string().check(maxCodePoints(2)),
  targetLanguage: z.string().check(maxCodePoints(2)),
});
