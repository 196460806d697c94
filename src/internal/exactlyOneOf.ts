import * as z from "zod/mini";
import { addJsonSchemaKeywords } from "./addJsonSchemaKeywords.js";
import { withHint } from "./checkHint.js";

/**
 * An object check: exactly one of `keys` is present (present means not `undefined`), as a media
 * message needs exactly one of `label` and `body`. Its issue says in words which keys clash or are
 * missing, and it adds the equivalent `oneOf` to the generated JSON Schema through Zod's metadata.
 */
// @__NO_SIDE_EFFECTS__
export function exactlyOneOf<K extends string>(
  keys: readonly K[],
): z.core.$ZodCheck<Partial<Record<K, unknown>>> {
  const check = z.check<Partial<Record<K, unknown>>>((payload) => {
    const present = keys.filter((key) => payload.value[key] !== undefined);
    if (present.length === 1) return;
    payload.issues.push({
      code: "custom",
      input: payload.value,
      params: { rule: "exactly_one_of", keys: [...keys], present },
    });
  });
  check._zod.onattach.push((schema) => {
    // Each branch declares the key it requires, so strict validators (Ajv's strictRequired) accept
    // it even where the object's own `properties` are out of their sight.
    addJsonSchemaKeywords(schema, {
      oneOf: keys.map((key) => ({ properties: { [key]: true }, required: [key] })),
    });
  });
  return withHint(check, { rule: "exactly_one_of", keys: [...keys] });
}
