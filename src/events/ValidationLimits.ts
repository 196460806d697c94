/**
 * The limits a validation runs under, so that its cost is bounded by the input's size and these
 * numbers, never by its shape. Each is optional; a missing, non-finite or non-positive one takes
 * its default.
 * JSON Schema has no such limits: this is the one deliberate difference between the library and the
 * shipped JSON Schema files, and no JSON body under 1 MiB comes near the node limit.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventContent, type ValidationLimits } from "messaging-events/events";
 *
 * const limits: ValidationLimits = { maxIssues: 10 };
 * const result = safeParseEventContent("s.message.text", { body: 1, format: 2 }, limits);
 * console.log(result.success); // false
 * ```
 */
export interface ValidationLimits {
  /**
   * How many levels the value may nest (at most 2048); deeper is an issue with code `too_deep`.
   * @default 512
   */
  readonly maxDepth?: number;
  /**
   * How many values may be visited, counting a shared reference each time it is reached (at most
   * 100,000,000); more is an issue with code `too_many_nodes`.
   * @default 1000000
   */
  readonly maxNodes?: number;
  /**
   * How many issues are reported; the rest are counted in `EventValidationError.omittedIssues`.
   * @default 100
   */
  readonly maxIssues?: number;
}
