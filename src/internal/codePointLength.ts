import * as z from "zod/mini";
import { withHint } from "./checkHint.js";

/**
 * Counts the Unicode code points of a string, as JSON Schema's `maxLength` does: a surrogate pair
 * (an emoji, say) counts once, a lone surrogate counts once.
 */
export function codePointLength(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/**
 * A string check: at most `maximum` Unicode code points (as JSON Schema counts them). Zod's own `maxLength` counts
 * UTF-16 units, which would reject 60 emoji in a 100-character field. The check reports a regular
 * `too_big` issue and records the bound where Zod's JSON Schema generator reads it, so the
 * generated schema carries `maxLength` with its code-point meaning.
 */
// @__NO_SIDE_EFFECTS__
export function maxCodePoints(maximum: number): z.core.$ZodCheck<string> {
  const check = z.check<string>((payload) => {
    const value = payload.value;
    // Code points never outnumber UTF-16 units, so short strings need no counting.
    if (value.length > maximum && codePointLength(value) > maximum) {
      payload.issues.push({ code: "too_big", origin: "string", maximum, inclusive: true, input: value });
    }
  });
  check._zod.onattach.push((schema) => {
    schema._zod.bag.maximum = maximum;
  });
  return withHint(check, { rule: "max_code_points", maximum });
}
