import * as z from "zod/mini";
import { addJsonSchemaKeywords } from "./addJsonSchemaKeywords.js";

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
 * two `contains`.
 */
// @__NO_SIDE_EFFECTS__
export function booleanOptions(): z.ZodMiniTuple<
  readonly [typeof booleanOption, typeof booleanOption],
  null
> {
  const check = z.check<[{ value: string }, { value: string }]>((payload) => {
    const [first, second] = payload.value;
    if (first.value !== second.value) return;
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
  return z.tuple([booleanOption, booleanOption]).check(check);
}
