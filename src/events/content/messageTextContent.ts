import * as z from "zod/mini";
import { maxCodePoints } from "../../internal/codePointLength.js";
import { extrasAreJson } from "../../internal/extrasAreJson.js";
import { jsonObject } from "../../internal/jsonValue.js";
import type { JsonObject } from "../JsonValue.js";

/**
 * Content schema of `s.message.text`: `body` (string, required), `format` (string of at most 100
 * Unicode code points, optional) and `annotations` (any JSON object, optional). Additional
 * properties are allowed and kept; their values must be JSON values.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageTextContent } from "messaging-events/events";
 *
 * const result = messageTextContent.safeParse({ body: "Hello!", format: "text/plain" });
 * if (result.success) console.log(result.data.body);
 * ```
 */
export const messageTextContent = /* @__PURE__ */ z
  .looseObject({
    body: z.string(),
    format: z.optional(z.string().check(maxCodePoints(100))),
    annotations: z.optional(jsonObject<JsonObject>()),
  })
  .check(extrasAreJson());
