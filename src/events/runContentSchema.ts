import * as z from "zod/mini";
import { breachIssue, findLimitBreach, unreadableIssue } from "../internal/findLimitBreach.js";
import { normalizeLimits, withLimits } from "../internal/limits.js";
import { IssueCollector, toEventIssues } from "../internal/toEventIssues.js";
import {
  EventValidationError,
  type EventValidationErrorCode,
  type EventValidationIssue,
} from "./EventValidationError.js";
import type { SafeParseResult } from "./SafeParseResult.js";
import type { ValidationLimits } from "./ValidationLimits.js";

/**
 * @internal Validates a value against a schema under the limits, turning every failure (a limit
 * reached, a throwing getter or proxy, anything) into an error value: never throws.
 */
export function runContentSchema<T>(
  schema: z.core.$ZodType,
  value: unknown,
  eventType: string | undefined,
  prefix: readonly (string | number)[],
  code: EventValidationErrorCode,
  options?: ValidationLimits,
): SafeParseResult<T> {
  const limits = normalizeLimits(options);
  const breach = findLimitBreach(value, limits);
  if (breach !== undefined) return failure(code, eventType, [breachIssue(breach, prefix, limits)], 0);
  return withLimits(limits, () => {
    let result: ReturnType<typeof z.safeParse>;
    try {
      result = z.safeParse(schema, value);
    } catch (cause) {
      return failure(code, eventType, [unreadableIssue(prefix, cause)], 0);
    }
    if (result.success) return { success: true, data: result.data as T };
    const collector = new IssueCollector(limits.maxIssues);
    toEventIssues(result.error.issues, value, prefix, collector);
    return failure(code, eventType, collector.issues, collector.omitted);
  });
}

function failure<T>(
  code: EventValidationErrorCode,
  eventType: string | undefined,
  issues: readonly EventValidationIssue[],
  omitted: number,
): SafeParseResult<T> {
  return { success: false, error: new EventValidationError(code, eventType, issues, omitted) };
}

/** @internal The result for a value that threw where nothing should: reported, never rethrown. */
export function unreadableResult<T>(
  code: EventValidationErrorCode,
  prefix: readonly (string | number)[],
  cause: unknown,
): SafeParseResult<T> {
  return failure(code, undefined, [unreadableIssue(prefix, cause)], 0);
}
