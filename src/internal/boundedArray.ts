import type * as z from "zod/mini";
import { ZodMiniArray } from "zod/mini";
import { $constructor } from "zod/v4/core";
import { activeLimits } from "./limits.js";

type Issue = z.core.$ZodRawIssue;

/**
 * Zod's array, except that it stops collecting its elements' issues once it holds as many as the
 * active limits report, and only counts the rest (one `omitted_issues` issue carries the count), and
 * that it refuses, before looking at a single element, an array longer than the node limit (a sparse
 * array can claim 2^32 - 1 entries and cost nothing to make). Zod's own array would gather one issue
 * per bad element and overflow the call stack past about 100,000 of them.
 */
interface BoundedArrayDef extends z.core.$ZodArrayDef {
  /** An exact number of entries, checked before the entries, which are checked all the same. */
  readonly length?: number;
}

const ZodMiniBoundedArray: $constructor<z.ZodMiniArray> = /* @__PURE__ */ $constructor(
  "ZodMiniBoundedArray",
  (inst, def: BoundedArrayDef) => {
    ZodMiniArray.init(inst, def);
    const { length } = def;
    if (length !== undefined) {
      // Where Zod's JSON Schema generator reads an array's bounds: minItems and maxItems.
      inst._zod.bag.minimum = length;
      inst._zod.bag.maximum = length;
    }
    inst._zod.parse = (payload, ctx) => {
      const input = payload.value;
      if (!Array.isArray(input)) {
        payload.issues.push({ expected: "array", code: "invalid_type", input, inst } as Issue);
        return payload;
      }
      const limits = activeLimits();
      if (input.length > limits.maxNodes) {
        payload.issues.push({
          code: "custom",
          input,
          inst,
          params: { rule: "too_many_nodes", limit: limits.maxNodes },
        } as Issue);
        return payload;
      }
      if (length !== undefined && input.length !== length) {
        const bound =
          input.length < length
            ? { code: "too_small", minimum: length }
            : { code: "too_big", maximum: length };
        payload.issues.push({
          ...bound,
          origin: "array",
          inclusive: true,
          exact: true,
          input,
          inst,
        } as Issue);
      }
      const value: unknown[] = new Array(input.length);
      let kept = 0;
      let omitted = 0;
      for (let i = 0; i < input.length; i++) {
        const result = def.element._zod.run({ value: input[i], issues: [] }, ctx) as z.core.ParsePayload;
        value[i] = result.value;
        if (result.issues.length === 0) continue;
        for (const issue of result.issues) {
          const omittedHere = omittedCount(issue);
          if (omittedHere !== undefined) {
            omitted += omittedHere;
            continue;
          }
          if (kept >= limits.maxIssues) {
            // Counted as the issues it becomes: one per unknown member.
            omitted += issue.code === "unrecognized_keys" ? issue.keys.length : 1;
            continue;
          }
          const mutable = issue as { path?: PropertyKey[] };
          mutable.path = [i, ...(mutable.path ?? [])];
          payload.issues.push(issue as Issue);
          kept++;
        }
      }
      if (omitted > 0) {
        payload.issues.push({
          code: "custom",
          input,
          inst,
          params: { rule: "omitted_issues", count: omitted },
        } as Issue);
      }
      payload.value = value;
      return payload;
    };
  },
);

/** The count an `omitted_issues` issue carries, or `undefined` for any other issue. */
export function omittedCount(issue: { code?: unknown; params?: unknown }): number | undefined {
  if (issue.code !== "custom") return undefined;
  const params = issue.params as { rule?: unknown; count?: unknown } | undefined;
  return params?.rule === "omitted_issues" && typeof params.count === "number" ? params.count : undefined;
}

/**
 * `z.array(element)` with the bounds described above; same type, same JSON Schema. With `length`,
 * an array of another length is reported and its entries are checked all the same, so that every
 * problem is reported at once (Zod's tuple stops at a wrong length).
 */
// @__NO_SIDE_EFFECTS__
export function boundedArray<T extends z.core.$ZodType>(
  element: T,
  options?: { readonly length?: number },
): z.ZodMiniArray<T> {
  return new ZodMiniBoundedArray({
    type: "array",
    element,
    length: options?.length,
  } as BoundedArrayDef) as unknown as z.ZodMiniArray<T>;
}
