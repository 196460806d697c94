import { Run } from "../internal/compiledRuntime.js";
import { breachIssue, findLimitBreach, unreadableIssue } from "../internal/findLimitBreach.js";
import type { Issue } from "../internal/issue.js";
import { normalizeLimits } from "../internal/limits.js";
import { prototypeHasMembers } from "../internal/prototypeHasMembers.js";
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
  return runChecks<T, SafeParseResult<T>>(check, value, eventType, prefix, base, code, options, failure);
}

/**
 * @internal How a run answers when it found issues: with the `safeParse…` failure (`failure`,
 * which makes the error), or as another caller needs (the Standard Schema objects answer with the
 * issues alone, so that their bundles hold no error class).
 */
export type Failure<F> = (
  code: EventValidationErrorCode,
  eventType: string | undefined,
  issues: readonly Issue[],
  omitted: number,
) => F;

/**
 * @internal {@link runCompiled}, answering a failure with `fail`. Throws only where `runCompiled`'s
 * callers catch.
 */
export function runChecks<T, F>(
  check: Checker,
  value: unknown,
  eventType: string | undefined,
  prefix: readonly (string | number)[],
  base: number,
  code: EventValidationErrorCode,
  options: ValidationLimits | undefined,
  fail: Failure<F>,
): { readonly success: true; readonly data: T } | F {
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
    const issue = breach !== undefined ? breachIssue(breach, prefix, limits) : unreadableIssue(prefix, cause);
    return fail(code, eventType, [issue], 0);
  }
  const { count, issues, omitted, stopped } = run;
  // Every value was read, within the limits: the exact walk could find nothing. (Unless enumerable
  // members were added to Object.prototype: JSON members are read by their own keys, the exact walk
  // lists inherited ones too.)
  const complete = !run.suspect && !run.unvisited && run.nodes >= 0 && !prototypeHasMembers();
  if (complete) {
    if (count === 0) return { success: true, data: data as T };
    if (issues !== undefined) return fail(code, eventType, issues, omitted);
  }
  const breach = findLimitBreach(value, limits);
  if (breach !== undefined) return fail(code, eventType, [breachIssue(breach, prefix, limits)], 0);
  if (stopped !== undefined) {
    // The walk of a JSON member stopped at a limit, so the exact walk, which sees at least as much,
    // finds a breach; should it not (an object changing under the walks), the limit stands.
    return fail(code, eventType, [breachIssue({ code: stopped, path: [] }, prefix, limits)], 0);
  }
  if (count === 0 || issues === undefined) return { success: true, data: data as T };
  return fail(code, eventType, issues, omitted);
}

/** @internal The issue for a value at `path` that threw when read. */
export { unreadableIssue };

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
  return failure(code, undefined, [unreadableIssue([], cause)], 0);
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
    const code = "ERR_INVALID_EVENT_CONTENT";
    return runChecks<T, SafeParseResult<T>>(check, content, type, ["content"], 1, code, options, failure);
  } catch (cause) {
    return unreadable("ERR_INVALID_EVENT_CONTENT", cause);
  }
}
