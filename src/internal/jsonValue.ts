import type * as z from "zod/mini";
import { ZodMiniCustom } from "zod/mini";
import { $constructor } from "zod/v4/core";
import { describeValue } from "./describe.js";
import { isPlainObject } from "./isPlainObject.js";
import { activeLimits } from "./limits.js";

/** Where a value stops being JSON, and what was found there. */
export interface NonJsonFinding {
  readonly path: (string | number)[];
  /** What was found (`"undefined"`, `"circular reference"`, `"Date"`, …), or the limit that was reached. */
  readonly found: string;
  /** Set when the value is not wrong but breaks a limit of nesting or size. */
  readonly limit?: "too_deep" | "too_many_nodes";
}

class Stop {
  readonly path: (string | number)[] = [];
  constructor(
    readonly found: string,
    readonly limit?: "too_deep" | "too_many_nodes",
    /** For a cycle: the depth where it closes, where the path is cut. */
    readonly depth?: number,
  ) {}
}

/**
 * Finds the first place where `value` is not a JSON value (`undefined`, a function, a symbol, a
 * bigint, a non-finite number, a class instance, a circular reference), or where it nests deeper or
 * is larger than the active limits allow, or returns `undefined`. A shared reference counts each
 * time it is reached, so cost is bounded by the node limit whatever the shape.
 */
export function findNonJson(value: unknown): NonJsonFinding | undefined {
  const limits = activeLimits();
  const budget = { nodes: limits.maxNodes, maxDepth: limits.maxDepth };
  const ancestors: object[] = [];
  try {
    check(value, 0, budget, ancestors);
    return undefined;
  } catch (caught) {
    if (caught instanceof Stop) {
      const path = caught.path.reverse().slice(0, caught.depth);
      return { path, found: caught.found, ...(caught.limit ? { limit: caught.limit } : {}) };
    }
    throw caught;
  }
}

function check(
  value: unknown,
  depth: number,
  budget: { nodes: number; readonly maxDepth: number },
  ancestors: object[],
): void {
  if (--budget.nodes < 0) throw new Stop("too many values", "too_many_nodes");
  if (value === null) return;
  switch (typeof value) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (Number.isFinite(value)) return;
      throw new Stop(String(value));
    case "object":
      break;
    default:
      throw new Stop(describeValue(value));
  }
  const container = value as object;
  const isArray = Array.isArray(container);
  if (!isArray && !isPlainObject(container)) throw new Stop(describeValue(container));
  // A cycle nests without end, so it always reaches the depth limit: only then are the ancestors
  // searched for the place where it closes, which keeps ordinary values free of that cost.
  if (depth >= budget.maxDepth) {
    const chain = [...ancestors, container];
    const seen = new Set<object>();
    for (let i = 0; i < chain.length; i++) {
      if (seen.has(chain[i]!)) throw new Stop("circular reference", undefined, i);
      seen.add(chain[i]!);
    }
    throw new Stop("too deep", "too_deep");
  }
  ancestors.push(container);
  if (isArray) {
    const items = container as unknown[];
    for (let i = 0; i < items.length; i++) {
      try {
        check(items[i], depth + 1, budget, ancestors);
      } catch (caught) {
        if (caught instanceof Stop) caught.path.push(i);
        throw caught;
      }
    }
  } else {
    const keys = Object.keys(container);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      try {
        check((container as Record<string, unknown>)[key], depth + 1, budget, ancestors);
      } catch (caught) {
        if (caught instanceof Stop) caught.path.push(key);
        throw caught;
      }
    }
  }
  ancestors.pop();
}

interface JsonSchemaDef extends z.core.$ZodCustomDef {
  /** Whether the value itself must be a plain object (annotations, preconditions), not any JSON value (open content). */
  readonly requireObject: boolean;
}

// A Zod schema type of its own rather than `z.custom().check(...)`: it reports each problem at the
// exact path where the value stops being JSON, and it keeps that behaviour and its JSON Schema
// form when Zod clones it (`.check()`, `.register()`), because a clone re-runs this initializer.
const ZodMiniJson: $constructor<
  z.ZodMiniCustom<unknown, unknown>,
  JsonSchemaDef
> = /* @__PURE__ */ $constructor("ZodMiniJson", (inst, def) => {
  ZodMiniCustom.init(inst, def);
  inst._zod.check = (payload) => {
    const value = payload.value;
    if (def.requireObject && !isPlainObject(value)) {
      payload.issues.push({ code: "invalid_type", expected: "object", input: value, inst });
      return;
    }
    const finding = findNonJson(value);
    if (finding === undefined) return;
    payload.issues.push({
      code: "custom",
      input: value,
      inst,
      path: finding.path,
      params: finding.limit
        ? { rule: finding.limit }
        : { expected: "json", found: finding.found, atRoot: finding.path.length === 0 },
    });
  };
  inst._zod.processJSONSchema = (_context, json) => {
    if (def.requireObject) json.type = "object";
  };
});

/**
 * Any JSON value (the content of the empty-schema types); `T` is the type it validates to
 * (the public `JsonValue`). Anything else is reported at the exact place it stops being JSON. In
 * JSON Schema it is the empty schema, which accepts every JSON document.
 */
// @__NO_SIDE_EFFECTS__
export function jsonValue<T = unknown>(): z.ZodMiniCustom<T, T> {
  return new ZodMiniJson({
    type: "custom",
    check: "custom",
    fn: () => true,
    requireObject: false,
  }) as z.ZodMiniCustom<T, T>;
}

/**
 * Any JSON object, not `null` and not an array (`T`: the public `JsonObject`): the shape of `annotations` and
 * `preconditions`, which the spec does not show. In JSON Schema: `{ "type": "object" }`.
 */
// @__NO_SIDE_EFFECTS__
export function jsonObject<T = Record<string, unknown>>(): z.ZodMiniCustom<T, T> {
  return new ZodMiniJson({
    type: "custom",
    check: "custom",
    fn: () => true,
    requireObject: true,
  }) as z.ZodMiniCustom<T, T>;
}
