import { describeValue, withArticle } from "./describe.js";
import { unreadableIssue } from "./findLimitBreach.js";
import type { Issue } from "./issue.js";

/**
 * The issue for a value at the root that is no plain object where one belongs (`what must be
 * expected, not …`), or, for an object that cannot even be asked what it is (a revoked proxy, a proxy whose
 * traps throw), the `unreadable` issue: "must be an object, not an object" would say nothing.
 */
export function notAnObjectIssue(value: unknown, what: string, expected = "an object"): Issue {
  if (typeof value === "object" && value !== null) {
    try {
      Array.isArray(value);
      Object.getPrototypeOf(value);
    } catch (cause) {
      return unreadableIssue([], cause);
    }
  }
  const received = describeValue(value);
  return {
    code: "invalid_type",
    path: [],
    pointer: "",
    message: `${what} must be ${expected}, not ${withArticle(received)}`,
    params: { expected: "object", received },
  };
}
