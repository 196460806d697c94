import * as z from "zod/mini";
import { withHint } from "./checkHint.js";
import { findNonJson } from "./findNonJson.js";
import { activeLimits } from "./limits.js";

/**
 * A check for the objects that allow additional properties: each additional member must still be a
 * JSON value (a string, finite number, boolean, null, array or plain object, at every depth), so that content survives `JSON.stringify` unchanged.
 * Members the shape declares are left to their own schemas. The static type of additional members
 * stays `unknown`, so optional declared members can still be assigned `undefined`.
 */
// @__NO_SIDE_EFFECTS__
export function extrasAreJson(): z.core.$ZodCheck<Record<string, unknown>> {
  let declared: ReadonlySet<string> = new Set();
  const check = z.check<Record<string, unknown>>((payload) => {
    const value = payload.value;
    const { maxIssues } = activeLimits();
    let reported = 0;
    let omitted = 0;
    for (const key of Object.keys(value)) {
      if (declared.has(key)) continue;
      const finding = findNonJson(value[key]);
      if (finding === undefined) continue;
      if (reported >= maxIssues) {
        omitted++;
        continue;
      }
      reported++;
      payload.issues.push({
        code: "custom",
        input: value,
        path: [key, ...finding.path],
        params: finding.limit
          ? { rule: finding.limit }
          : { expected: "json", found: finding.found, atRoot: false },
      });
    }
    if (omitted > 0) {
      payload.issues.push({
        code: "custom",
        input: value,
        params: { rule: "omitted_issues", count: omitted },
      });
    }
  });
  check._zod.onattach.push((schema) => {
    const shape = (schema._zod.def as { shape?: Record<string, unknown> }).shape;
    declared = new Set(Object.keys(shape ?? {}));
  });
  return withHint(check, { rule: "extras_are_json" });
}
