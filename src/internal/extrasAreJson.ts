import * as z from "zod/mini";
import { findNonJson } from "./jsonValue.js";

/**
 * A check for the objects that allow additional properties: each additional member must still be a
 * JSON value (ruling 3's meaning of JSON), so that content survives `JSON.stringify` unchanged.
 * Members the shape declares are left to their own schemas. The static type of additional members
 * stays `unknown`, so optional declared members can still be assigned `undefined`.
 */
// @__NO_SIDE_EFFECTS__
export function extrasAreJson(): z.core.$ZodCheck<Record<string, unknown>> {
  let declared: ReadonlySet<string> = new Set();
  const check = z.check<Record<string, unknown>>((payload) => {
    const value = payload.value;
    for (const key of Object.keys(value)) {
      if (declared.has(key)) continue;
      const finding = findNonJson(value[key]);
      if (finding === undefined) continue;
      payload.issues.push({
        code: "custom",
        input: value,
        path: [key, ...finding.path],
        params: { expected: "json", found: finding.found, atRoot: false },
      });
    }
  });
  check._zod.onattach.push((schema) => {
    const shape = (schema._zod.def as { shape?: Record<string, unknown> }).shape;
    declared = new Set(Object.keys(shape ?? {}));
  });
  return check;
}
