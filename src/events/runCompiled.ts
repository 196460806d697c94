import { Run } from "../internal/compiledRuntime.js";
import { pathLabel, quote } from "../internal/describe.js";
import { breachIssue, findLimitBreach, reasonOf } from "../internal/findLimitBreach.js";
import { type Issue, makeIssue } from "../internal/issue.js";
import { normalizeLimits } from "../internal/limits.js";
import { type EventValidationErrorCode, validationError } from "./EventValidationError.js";
import type { SafeParseResult } from "./SafeParseResult.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/** A generated validator (src/events/compiledValidators.ts): issues go to the run, the copy is returned. */
export type Checker = (value: unknown, run: Run) => unknown;

/**
 * @internal Runs a generated validator on `value`, found at `prefix` in the event (the first `base`
 * segments of which are outside the value), and answers exactly as the Zod-interpreted validation
 * would: the limits first (a breach is the only issue), then the value's own issues. The exact walk
 * of the limits runs only when the validator raised an issue or may have passed a limit, so a
 * valid value is read once. Never throws.
 */
export function runCompiled<T>(
  check: Checker,
  value: unknown,
  eventType: string | undefined,
  prefix: readonly (string | number)[],
  base: number,
  code: EventValidationErrorCode,
  options: ValidationLimits | undefined,
): SafeParseResult<T> {
  const limits = normalizeLimits(options);
  // The run's path starts as the caller's `prefix` (a fresh array the run takes over).
  const run = new Run(prefix as (string | number)[], base, limits);
  const length = prefix.length;
  let data: unknown;
  try {
    data = check(value, run);
  } catch (cause) {
    prefix = run.path.slice(0, length);
    const breach = findLimitBreach(value, limits);
    const issue =
      breach !== undefined
        ? breachIssue(breach, prefix, limits)
        : makeIssue(
            "unreadable",
            prefix,
            `${pathLabel(prefix)} could not be read: ${quote(reasonOf(cause))}`,
          );
    return failure(code, eventType, [issue], 0);
  }
  const { count, issues, omitted, stopped } = run;
  // Every value was read, within the limits: the exact walk could find nothing. (Unless enumerable
  // members were added to Object.prototype: JSON members are read by their own keys, the exact walk
  // lists inherited ones too.)
  const complete = !run.suspect && !run.unvisited && run.nodes >= 0 && !prototypeHasMembers();
  if (complete) {
    if (count === 0) return { success: true, data: data as T };
    if (issues !== undefined) return failure(code, eventType, issues, omitted);
  }
  const breach = findLimitBreach(value, limits);
  if (breach !== undefined) return failure(code, eventType, [breachIssue(breach, prefix, limits)], 0);
  if (stopped !== undefined) {
    // The walk of a JSON member stopped at a limit, so the exact walk, which sees at least as much,
    // finds a breach; should it not (an object changing under the walks), the limit stands.
    return failure(code, eventType, [breachIssue({ code: stopped, path: [] }, prefix, limits)], 0);
  }
  if (count === 0 || issues === undefined) return { success: true, data: data as T };
  return failure(code, eventType, issues, omitted);
}

function failure<T>(
  code: EventValidationErrorCode,
  eventType: string | undefined,
  issues: readonly Issue[],
  omitted: number,
): SafeParseResult<T> {
  return { success: false, error: validationError(code, eventType, issues, omitted) };
}

/** @internal The result for a value that threw where nothing should: reported, never rethrown. */
export function unreadable<T>(code: EventValidationErrorCode, cause: unknown): SafeParseResult<T> {
  const issue = makeIssue("unreadable", [], `${pathLabel([])} could not be read: ${quote(reasonOf(cause))}`);
  return failure(code, undefined, [issue], 0);
}

/**
 * @internal The result of `safeParseEventContent(type, content, options)`, by the generated
 * validator of that type. Never throws.
 */
export function runContent<T>(
  check: Checker,
  type: string,
  content: unknown,
  options: ValidationLimits | undefined,
): SafeParseResult<T> {
  try {
    return runCompiled(check, content, type, ["content"], 1, "ERR_INVALID_EVENT_CONTENT", options);
  } catch (cause) {
    return unreadable("ERR_INVALID_EVENT_CONTENT", cause);
  }
}

const plain: object = {};

/** Whether `Object.prototype` has enumerable members (someone polluted it). */
function prototypeHasMembers(): boolean {
  for (const _ in plain) return true;
  return false;
}
