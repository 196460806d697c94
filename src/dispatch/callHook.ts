/** Calls a hook; what it throws or rejects with is dropped, so a hook cannot stop delivery. */
export function callHook<A extends unknown[]>(hook: ((...args: A) => unknown) | undefined, ...args: A): void {
  if (hook === undefined) return;
  try {
    const result = hook(...args);
    if (
      typeof result === "object" &&
      result !== null &&
      typeof (result as Promise<void>).then === "function"
    ) {
      (result as Promise<void>).then(undefined, () => undefined);
    }
  } catch {}
}
