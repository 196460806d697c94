import type { EventValidationError } from "./EventValidationError.js";

/**
 * The result of a `safeParse…` function: the typed data, or the error that says what is wrong.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { type SafeParseResult, safeParseEventContent } from "messaging-events/events";
 *
 * const result: SafeParseResult<{ status: string }> = safeParseEventContent("s.presence", { status: "AWAY" });
 * ```
 */
export type SafeParseResult<T> =
  | { readonly success: true; readonly data: T; readonly error?: undefined }
  | { readonly success: false; readonly data?: undefined; readonly error: EventValidationError };
