import type * as z from "zod/mini";

/**
 * What a custom check of the library does, written on the check so that the validator generator
 * (`scripts/build-validators.ts`) can emit the same rule as code: a `z.check` is an opaque function
 * otherwise.
 */
export type CheckHint =
  | { readonly rule: "max_code_points"; readonly maximum: number }
  | { readonly rule: "exactly_one_of"; readonly keys: readonly string[] }
  | { readonly rule: "extras_are_json" }
  | { readonly rule: "boolean_options" }
  | { readonly rule: "not_blank" }
  | { readonly rule: "jsonapi_member"; readonly kind: "links" | "relationships" | "jsonapi" }
  | { readonly rule: "field_names" }
  | { readonly rule: "no_errors_beside_data" }
  | { readonly rule: "idempotency_key" };

/** Writes `hint` on `check` and returns the check. */
// @__NO_SIDE_EFFECTS__
export function withHint<C extends z.core.$ZodCheck<never>>(check: C, hint: CheckHint): C {
  (check._zod.def as { hint?: CheckHint }).hint = hint;
  return check;
}

/** The hint written on a check, if any. */
export function hintOf(check: z.core.$ZodCheck<never>): CheckHint | undefined {
  return (check._zod.def as { hint?: CheckHint }).hint;
}
