import * as z from "zod/mini";
import { booleanOptions } from "../../internal/booleanOptions.js";
import { boundedArray } from "../../internal/boundedArray.js";
import { dateTime } from "../../internal/dateTime.js";

const option = /* @__PURE__ */ z.strictObject({
  value: z.string(),
  label: z.string(),
  url: z.optional(z.nullable(z.string())),
});

const options = /* @__PURE__ */ boundedArray(option).check(z.minLength(1));

const common = {
  body: /* @__PURE__ */ z.string(),
  writeable: /* @__PURE__ */ boundedArray(z.string()).check(z.minLength(1)),
  action: /* @__PURE__ */ z.optional(z.string()),
  label: /* @__PURE__ */ z.optional(z.string()),
  format: /* @__PURE__ */ z.optional(z.nullable(z.enum(["text/plain", "text/html"]))),
  repeatable: /* @__PURE__ */ z.optional(z.boolean()),
  required: /* @__PURE__ */ z.optional(z.boolean()),
};

/**
 * Content schema of `s.message.action`: an interactive element, a discriminated union on `type`.
 * Every variant has `body` (string), `writeable` (at least one string) and the optional `action`,
 * `label`, `format` (`text/plain`, `text/html` or `null`), `repeatable` and `required`; then:
 *
 * - `text`, `textarea`, `email`: nothing more;
 * - `date`: `min` and `max` (date-time, required), `center` (date-time or `null`, optional);
 * - `boolean`: `options`, exactly two `{ label, value }` entries with the values `"true"` and
 *   `"false"`, one each ([boolean actions](https://github.com/messaging-events/messaging-events/blob/main/docs/readings.md#boolean-actions));
 * - `button`, `link`: `options`, at least one `{ value, label, url? }`;
 * - `select`: `multiple` (boolean, required) and `options` as for `button`.
 *
 * No variant allows other properties, at any depth.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { messageActionContent } from "messaging-events/events";
 *
 * const action = messageActionContent.parse({
 *   type: "button",
 *   body: "Did this answer your question?",
 *   writeable: ["customer"],
 *   options: [
 *     { value: "yes", label: "Yes" },
 *     { value: "no", label: "No" },
 *   ],
 * });
 * if (action.type === "button") console.log(action.options.length); // 2
 * ```
 */
export const messageActionContent = /* @__PURE__ */ z.discriminatedUnion("type", [
  z.strictObject({ ...common, type: z.enum(["text", "textarea", "email"]) }),
  z.strictObject({
    ...common,
    type: z.literal("date"),
    min: dateTime(),
    max: dateTime(),
    center: z.optional(z.nullable(dateTime())),
  }),
  z.strictObject({ ...common, type: z.literal("boolean"), options: booleanOptions() }),
  z.strictObject({ ...common, type: z.enum(["button", "link"]), options }),
  z.strictObject({ ...common, type: z.literal("select"), multiple: z.boolean(), options }),
]);
