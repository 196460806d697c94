/**
 * Runs `fn` through `through` (an instrumentation's `run`, a context manager's `with`), or alone
 * when `through` fails before calling it or forgets to: `fn` runs exactly once, and what it returns
 * or throws is the answer, whatever `through` itself returns or throws.
 */
export function runExactlyOnce<T>(through: (once: () => unknown) => unknown, fn: () => T): T {
  let called = false;
  let failed = false;
  let outcome: unknown;
  const once = (): unknown => {
    called = true;
    try {
      outcome = fn();
    } catch (error) {
      failed = true;
      outcome = error;
    }
    if (failed) throw outcome;
    return outcome;
  };
  try {
    through(once);
  } catch {
    // `fn`'s own failure is thrown below; the failure of what it ran through is dropped.
  }
  if (!called) return fn();
  if (failed) throw outcome;
  return outcome as T;
}
