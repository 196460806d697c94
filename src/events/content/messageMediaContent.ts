import * as z from "zod/mini";
import { exactlyOneOf } from "../../internal/exactlyOneOf.js";
import { extrasAreJson } from "../../internal/extrasAreJson.js";
import { jsonObject } from "../../internal/jsonValue.js";
import type { JsonObject } from "../JsonValue.js";

/**
 * Content schema of `s.message.media`: `mediaId` (string, required) plus exactly one of `label`
 * and `body` (strings), and `annotations` (any JSON object, optional). Content with both `label`
 * and `body`, or with neither, is invalid ([media messages](https://github.com/messaging-events/messaging-events/blob/main/docs/readings.md#media-messages)). Additional properties are allowed and kept;
 * their values must be JSON values.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageMediaContent } from "messaging-events/events";
 *
 * messageMediaContent.safeParse({ mediaId: "m-1", label: "cat.jpg" }).success; // true
 * messageMediaContent.safeParse({ mediaId: "m-1", label: "cat.jpg", body: "A cat" }).success; // false
 * ```
 */
export const messageMediaContent = /* @__PURE__ */ z
  .looseObject({
    label: z.optional(z.string()),
    body: z.optional(z.string()),
    mediaId: z.string(),
    annotations: z.optional(jsonObject<JsonObject>()),
  })
  .check(exactlyOneOf(["label", "body"]), extrasAreJson());
