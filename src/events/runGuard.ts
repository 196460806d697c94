import { exceedsLimits } from "../internal/findLimitBreach.js";
import type { Budget, Guard } from "../internal/guardRuntime.js";
import { normalizeLimits } from "../internal/limits.js";
import { prototypeHasMembers } from "../internal/prototypeHasMembers.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * @internal The verdict of a generated guard on `value` under `limits`: the verdict of the
 * validator of the same schema (`runCompiled`), for which the exact walk of the limits runs only
 * where the guard may have passed one. Never throws: a value that throws when read is invalid.
 */
export function runGuard(guard: Guard, value: unknown, limits: ValidationLimits | undefined): boolean {
  try {
    const checked = normalizeLimits(limits);
    const budget: Budget = {
      nodes: checked.maxNodes - 1,
      maxDepth: checked.maxDepth,
      maxNodes: checked.maxNodes,
      suspect: false,
    };
    if (!guard(value, budget, 0)) return false;
    return (!budget.suspect && budget.nodes >= 0 && !prototypeHasMembers()) || !exceedsLimits(value, checked);
  } catch {
    return false;
  }
}
