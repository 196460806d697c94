/** The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Waits `ms` milliseconds, or rejects with `signal.reason` as soon as the signal aborts (at once if it
 * already has). Waits longer than `setTimeout` can hold are chained, so any finite wait is honoured;
 * an infinite one waits for the signal. Leaves no timer and no listener behind.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = Date.now() + ms;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const wait = (remaining: number) => {
      if (!(remaining > 0)) {
        signal?.removeEventListener("abort", onAbort);
        resolve();
        return;
      }
      timer = setTimeout(() => wait(end - Date.now()), Math.min(remaining, MAX_TIMER_MS));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    wait(ms);
  });
}
