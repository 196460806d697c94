import { timeBoxed } from "../internal/timeBoxed.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";

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
