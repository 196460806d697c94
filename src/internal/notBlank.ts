import * as z from "zod/mini";
import { withHint } from "./checkHint.js";

/** A string check: not only white space. In JSON Schema: `pattern: "\\S"`. */
// @__NO_SIDE_EFFECTS__
export function notBlank(): z.core.$ZodCheck<string> {
  const check = z.check<string>((payload) => {
    if (!/\S/.test(payload.value)) {
      payload.issues.push({ code: "custom", input: payload.value, params: { rule: "not_blank" } });
    }
  });
  check._zod.onattach.push((schema) => {
    const bag = schema._zod.bag as { patterns?: Set<RegExp> };
    bag.patterns ??= new Set();
    bag.patterns.add(/\S/);
  });
  return withHint(check, { rule: "not_blank" });
}
