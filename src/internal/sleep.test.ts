import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS, sleep } from "./sleep.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("sleep", () => {
  it("waits the time given, even beyond what one setTimeout can hold", async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = sleep(MAX_TIMER_MS * 2 + 5).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false); // a single timer would have fired at once, or here
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(5);
    await waiting;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with the signal's reason, at once or while waiting, leaving no timer behind", async () => {
    vi.useFakeTimers();
    const before = new AbortController();
    before.abort(new Error("before"));
    await expect(sleep(1_000, before.signal)).rejects.toThrow("before");

    const during = new AbortController();
    const waiting = sleep(60_000, during.signal);
    await vi.advanceTimersByTimeAsync(1_000);
    during.abort(new Error("during"));
    await expect(waiting).rejects.toThrow("during");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("an infinite wait ends only with the signal", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(Number.POSITIVE_INFINITY, controller.signal);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS * 3);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
  });

  it("resolves at once for zero, negative or NaN waits", async () => {
    vi.useFakeTimers();
    for (const ms of [0, -5, Number.NaN]) await sleep(ms);
    expect(vi.getTimerCount()).toBe(0);
  });
});
