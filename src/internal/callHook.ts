/**
 * Calls a user's hook (`onError`, `onRetry`, `onAttempt`, `onCircuitChange`…): what it throws, or
 * the promise it returns rejects with, is dropped, so that a hook can never change an answer or a
 * delivery. Nothing is called when there is no hook.
 */
export function callHook<A extends unknown[]>(hook: ((...args: A) => unknown) | undefined, ...args: A): void {
  if (hook === undefined) return;
  try {
    const result: unknown = hook(...args);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === "function") {
      (result as PromiseLike<unknown>).then(undefined, () => undefined);
    }
  } catch {}
}
