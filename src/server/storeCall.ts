import { errorTypeOf } from "../internal/errorType.js";
import { timeBoxed } from "../internal/timeBoxed.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";
import type { RequestTrace } from "./RequestErrors.js";

/**
 * Runs one store call, but never waits longer than `storeTimeoutMs` for it; `onLate` sees what a
 * call that outlived its answer settles to.
 */
export function storeCall<T>(
  settings: NormalizedHandlerOptions,
  call: () => Promise<T>,
  onLate?: (value: T) => void,
): Promise<T> {
  return timeBoxed(settings.storeTimeoutMs, call, onLate);
}

/** {@link storeCall} within a request's trace, when it has one: the trace hears the call start and end. */
export function tracedStoreCall<T>(
  settings: NormalizedHandlerOptions,
  trace: RequestTrace | undefined,
  operation: "claim" | "complete" | "release",
  call: () => Promise<T>,
  onLate?: (value: T) => void,
): Promise<T> {
  if (trace === undefined) return storeCall(settings, call, onLate);
  const span = trace.startStoreCall(operation);
  return storeCall(settings, call, onLate).then(
    (value) => {
      span?.end(undefined);
      return value;
    },
    (error: unknown) => {
      span?.end(errorTypeOf(error));
      throw error;
    },
  );
}
