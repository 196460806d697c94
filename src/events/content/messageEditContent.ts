import * as z from "zod/mini";
import { jsonObject } from "../../internal/jsonValue.js";
import type { JsonObject } from "../JsonValue.js";

/**
 * Content schema of `s.message.edit`: `body` (string, required), `editedType` (`s.message.media`
 * or `s.message.text`, optional) and `annotations` (any JSON object, optional). No other
 * properties.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageEditContent } from "messaging-events/events";
 *
 * messageEditContent.parse({ body: "Hello again", editedType: "s.message.text" });
 * ```
 */
export const messageEditContent = /* @__PURE__ */ z.strictObject({
  body: z.string(),
  editedType: z.optional(z.enum(["s.message.media", "s.message.text"])),
  annotations: z.optional(jsonObject<JsonObject>()),
});
