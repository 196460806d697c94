import * as z from "zod/mini";
import { withHint } from "../internal/checkHint.js";
import { activeLimits } from "../internal/limits.js";
import { checkJsonApiMember, type Report } from "./jsonApiRules.js";

/**
 * @internal A check of a member whose JSON is already checked, for what JSON:API requires of it
 * (as the official JSON:API schema does): `links` objects, `relationships`, the `jsonapi` object.
 * Problems are reported as the library's issues (capped like every other), with the words here.
 */
// @__NO_SIDE_EFFECTS__
export function jsonApiStructure(
  kind: "links" | "relationships" | "jsonapi",
): z.core.$ZodCheck<Record<string, unknown>> {
  const check = z.check<Record<string, unknown>>((payload) => {
    const { maxIssues } = activeLimits();
    let reported = 0;
    let omitted = 0;
    const report: Report = (path, code, text, params) => {
      if (reported >= maxIssues) {
        omitted++;
        return;
      }
      reported++;
      payload.issues.push({
        code: "custom",
        input: payload.value,
        path,
        params: { rule: "jsonapi", code, text, params },
      });
    };
    checkJsonApiMember(kind, payload.value, report);
    if (omitted > 0) {
      payload.issues.push({
        code: "custom",
        input: payload.value,
        params: { rule: "omitted_issues", count: omitted },
      });
    }
  });
  return withHint(check, { rule: "jsonapi_member", kind });
}
