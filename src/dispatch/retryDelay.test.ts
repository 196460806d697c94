import { describe, expect, it } from "vitest";
import { retryDelay } from "./retryDelay.js";

const schedule = [1_000, 10_000, 60_000];
const base = { schedule, jitter: 0, retryAfterMs: undefined, maxRetryAfterMs: undefined };

describe("retryDelay", () => {
  it("follows the schedule, then gives up", () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay({ ...base, attempts }))).toEqual([
      1_000,
      10_000,
      60_000,
      undefined,
    ]);
  });

  it("spreads each step by ±jitter", () => {
    expect(retryDelay({ ...base, attempts: 1, jitter: 0.2, random: () => 0 })).toBe(800);
    expect(retryDelay({ ...base, attempts: 1, jitter: 0.2, random: () => 0.999_999 })).toBe(1_200);
  });

  it.each([
    ["a shorter Retry-After never shortens the wait", 1, 500, undefined, 1_000],
    ["a longer one is honoured", 1, 5_000, undefined, 5_000],
    ["up to the step after next", 1, 3_600_000, undefined, 10_000],
    ["or the last step when there is none", 3, 3_600_000, undefined, 60_000],
    ["or maxRetryAfterMs", 1, 3_600_000, 30_000, 30_000],
    ["but never below the scheduled wait", 2, 20_000, 5_000, 10_000],
  ])("%s", (_name, attempts, retryAfterMs, maxRetryAfterMs, expected) => {
    expect(retryDelay({ ...base, attempts, retryAfterMs, maxRetryAfterMs })).toBe(expected);
  });
});
