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
