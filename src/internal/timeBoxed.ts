/** What {@link timeBoxed} rejects with when the call does not settle in time. */
export class TimedOut extends Error {
  constructor(timeoutMs: number) {
    super(`did not answer within ${timeoutMs} ms`);
    this.name = "TimedOut";
  }
}

/**
 * Runs one call, but never waits longer than `timeoutMs` for it: past it, rejects with
 * {@link TimedOut} (the call itself goes on; `onLate` sees what it settles to, so that a late
 * success can be undone). A call that settles within a few microtasks (a store in memory) is not
 * timed at all: a timer per call would cost more than the call.
 */
export async function timeBoxed<T>(
  timeoutMs: number,
  call: () => Promise<T>,
  onLate?: (value: T) => void,
): Promise<T> {
  // Called at once; a call that throws rejects this one, as one that rejects does.
  const pending = Promise.resolve(call());
  let settled = false;
  let late = false;
  const settle = () => {
    settled = true;
  };
  pending.then((value) => {
    settle();
    if (late) onLate?.(value);
  }, settle);
  for (let tick = 0; tick < 6 && !settled; tick++) await null;
  // Awaited, not returned: returning a promise from an async function costs two more turns.
  if (settled) return await pending;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new TimedOut(timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
