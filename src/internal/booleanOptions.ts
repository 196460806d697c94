import * as z from "zod/mini";
import { addJsonSchemaKeywords } from "./addJsonSchemaKeywords.js";
import { boundedArray } from "./boundedArray.js";
import { withHint } from "./checkHint.js";

const booleanOption = /* @__PURE__ */ z.strictObject({
  label: z.string(),
  value: z.enum(["true", "false"]),
});

const hasValue = (value: "true" | "false") => ({
  contains: { type: "object", properties: { value: { const: value } }, required: ["value"] },
});

/**
 * The `options` of a `boolean` action: exactly two `{ label, value }` entries whose values are
 * `"true"` and `"false"`, one each, in either order. The generated JSON Schema says the same with
 * two `contains`. Built as an array of exactly two entries rather than Zod's tuple, so that a wrong
 * count and wrong entries are reported together; typed as the pair it is.
 */
// @__NO_SIDE_EFFECTS__
export function booleanOptions(): z.ZodMiniTuple<
  readonly [typeof booleanOption, typeof booleanOption],
  null
> {
  const check = z.check<{ value: string }[]>((payload) => {
    const [first, second] = payload.value;
    if (first === undefined || second === undefined || first.value !== second.value) return;
    payload.issues.push({
      code: "custom",
      input: payload.value,
      path: [1, "value"],
      params: { rule: "boolean_options", duplicate: first.value },
    });
  });
  check._zod.onattach.push((schema) => {
    addJsonSchemaKeywords(schema, { allOf: [hasValue("true"), hasValue("false")] });
  });
  return boundedArray(booleanOption, { length: 2 }).check(
    withHint(check, { rule: "boolean_options" }),
  ) as unknown as z.ZodMiniTuple<readonly [typeof booleanOption, typeof booleanOption], null>;
}
