import * as z from "zod/mini";
import { jsonObject } from "../../internal/jsonValue.js";
import type { JsonObject } from "../JsonValue.js";

/**
 * Content schema of `s.support.request`: `liveChatId` (string, required) and `preconditions` (any
 * JSON object, optional: the spec does not show its shape).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { supportRequestContent } from "messaging-events/events";
 *
 * supportRequestContent.parse({ liveChatId: "sales", preconditions: { language: "en" } });
 * ```
 */
export const supportRequestContent = /* @__PURE__ */ z.strictObject({
  liveChatId: z.string(),
  preconditions: z.optional(jsonObject<JsonObject>()),
});
