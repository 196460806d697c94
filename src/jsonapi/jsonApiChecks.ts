import * as z from "zod/mini";
import { IDEMPOTENCY_KEY_PATTERN } from "../idempotency/idempotencyKey.js";
import { withHint } from "../internal/checkHint.js";
import { activeLimits } from "../internal/limits.js";
import { isJsonApiFieldName } from "./eventAttributeNames.js";

/**
 * @internal An object check: every member not declared by the shape has a name JSON:API allows for a
 * field (attributes and relationships). Issues are capped like every other.
 */
// @__NO_SIDE_EFFECTS__
export function fieldNamesAreJsonApi(): z.core.$ZodCheck<Record<string, unknown>> {
  let declared: ReadonlySet<string> = new Set();
  const check = z.check<Record<string, unknown>>((payload) => {
    const { maxIssues } = activeLimits();
    let reported = 0;
    let omitted = 0;
    for (const key of Object.keys(payload.value)) {
      if (declared.has(key) || isJsonApiFieldName(key)) continue;
      if (reported >= maxIssues) {
        omitted++;
        continue;
      }
      reported++;
      payload.issues.push({
        code: "custom",
        input: payload.value,
        path: [key],
        params: { rule: "field_name" },
      });
    }
    if (omitted > 0) {
      payload.issues.push({
        code: "custom",
        input: payload.value,
        params: { rule: "omitted_issues", count: omitted },
      });
    }
  });
  check._zod.onattach.push((schema) => {
    const shape = (schema._zod.def as { shape?: Record<string, unknown> }).shape;
    declared = new Set(Object.keys(shape ?? {}));
  });
  return withHint(check, { rule: "field_names" });
}

/** @internal A document check: JSON:API forbids `data` and `errors` in one document. */
// @__NO_SIDE_EFFECTS__
export function noErrorsBesideData(): z.core.$ZodCheck<Record<string, unknown>> {
  const check = z.check<Record<string, unknown>>((payload) => {
    if (payload.value.errors !== undefined) {
      payload.issues.push({
        code: "custom",
        input: payload.value,
        path: ["errors"],
        params: { rule: "errors_with_data" },
      });
    }
  });
  return withHint(check, { rule: "no_errors_beside_data" });
}

/** @internal An idempotency key as the document carries it. */
// @__NO_SIDE_EFFECTS__
export function idempotencyKeySchema(): z.ZodMiniString<string> {
  return z.string().check(
    withHint(
      z.check<string>((payload) => {
        if (IDEMPOTENCY_KEY_PATTERN.test(payload.value)) return;
        payload.issues.push({ code: "custom", input: payload.value, params: { rule: "idempotency_key" } });
      }),
      { rule: "idempotency_key" },
    ),
  );
}
