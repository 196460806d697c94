import { MAX_TIMER_MS } from "../internal/sleep.js";

/** Who waits on a memory queue, and the timer that wakes them: see {@link createQueueWaiters}. */
export interface QueueWaiters {
  /** Wakes every waiting `take`, to look for a delivery again. */
  wakeTakers(): void;
  /**
   * Waits, as a `take` that found nothing, until the takers are woken (a delivery was scheduled, or
   * the timer fired) or `signal` aborts.
   */
  waitToTake(signal: AbortSignal | undefined): Promise<void>;
  /** Lets the `idle` calls go unless `busy` (a delivery is waiting or leased). */
  checkIdle(busy: boolean): void;
  /** Resolves once the queue is idle (or closed): at once when `idle` is already true. */
  untilIdle(idle: boolean): Promise<void>;
  /** Stops the timer and lets every waiter go: the queue closed. */
  close(): void;
}

/**
 * The waiters of a memory queue: the `take` calls waiting for a delivery, the `idle` calls waiting
 * for nothing to be left, and the one timer that wakes the takers at the next due time or lock
 * expiry. The timer is armed only while someone waits to take, and keeps the process alive (it is
 * not `unref`ed) only while someone waits for idle.
 *
 * @param now the queue's clock, in epoch milliseconds.
 * @param closed whether the queue is closed.
 * @param nextAt the next due time or lock expiry (epoch ms; `Infinity` for none).
 */
export function createQueueWaiters(
  now: () => number,
  closed: () => boolean,
  nextAt: () => number,
): QueueWaiters {
  let takers = new Set<() => void>();
  let idlers: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let timerHeld = false;

  /** Wakes every waiting `take`, to look for a delivery again. */
  const wakeTakers = () => {
    const woken = takers;
    takers = new Set();
    for (const wake of woken) wake();
  };
  /** Stops the timer, if it runs. */
  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
  };
  /** Arms the timer for the next due time, if anyone is waiting to take. */
  const rearm = (force = false) => {
    if (closed() || takers.size === 0) {
      clearTimer();
      return;
    }
    const at = nextAt();
    if (at === Number.POSITIVE_INFINITY) {
      clearTimer();
      return;
    }
    if (!force && timer !== undefined && timerAt <= at) return;
    clearTimer();
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        wakeTakers();
      },
      Math.min(Math.max(0, at - now()), MAX_TIMER_MS),
    );
    timerHeld = idlers.length > 0;
    if (!timerHeld) (timer as unknown as { unref?: () => void }).unref?.();
  };

  return {
    wakeTakers,
    waitToTake(signal) {
      return new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          takers.delete(wake);
          resolve();
        };
        takers.add(wake);
        signal?.addEventListener("abort", onAbort, { once: true });
        rearm();
      });
    },
    checkIdle(busy) {
      if (busy || idlers.length === 0) return;
      const done = idlers;
      idlers = [];
      for (const resolve of done) resolve();
      // Nobody waits for idle any more: the timer must not keep the process alive.
      if (timer !== undefined && timerHeld) rearm(true);
    },
    untilIdle(idle) {
      if (idle) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idlers.push(resolve);
        // Hold the process open while someone waits: re-arm the timer as a referenced one.
        if (timer !== undefined && !timerHeld) rearm(true);
      });
    },
    close() {
      clearTimer();
      wakeTakers();
      // Nothing more will be delivered: whoever waits for the queue to be idle may go on.
      const done = idlers;
      idlers = [];
      for (const resolve of done) resolve();
    },
  };
}
