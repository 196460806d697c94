import { describe, expect, it } from "vitest";
import { retryDelay } from "./retryDelay.js";

const retry = { delaysMs: [1_000, 10_000, 60_000], jitter: 0, maxRetryAfterMs: undefined };
const base = { retry, retryAfterMs: undefined };

describe("retryDelay", () => {
  it("follows retry.delaysMs, then gives up", () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay({ ...base, attempts }))).toEqual([
      1_000,
      10_000,
      60_000,
      undefined,
    ]);
  });

  it("gives up after the first attempt when delaysMs is []", () => {
    expect(retryDelay({ ...base, retry: { ...retry, delaysMs: [] }, attempts: 1 })).toBeUndefined();
  });

  it("spreads each wait by ±jitter", () => {
    const spread = { ...retry, jitter: 0.2 };
    expect(retryDelay({ ...base, retry: spread, attempts: 1, random: () => 0 })).toBe(800);
    expect(retryDelay({ ...base, retry: spread, attempts: 1, random: () => 0.999_999 })).toBe(1_200);
  });

  it.each([
    ["a shorter Retry-After never shortens the wait", 1, 500, undefined, 1_000],
    ["a longer one is honoured", 1, 5_000, undefined, 5_000],
    ["up to the wait after next", 1, 3_600_000, undefined, 10_000],
    ["or the last wait when there is none", 3, 3_600_000, undefined, 60_000],
    ["or retry.maxRetryAfterMs", 1, 3_600_000, 30_000, 30_000],
    ["but never below the planned wait", 2, 20_000, 5_000, 10_000],
  ])("%s", (_name, attempts, retryAfterMs, maxRetryAfterMs, expected) => {
    expect(retryDelay({ retry: { ...retry, maxRetryAfterMs }, attempts, retryAfterMs })).toBe(expected);
  });
});
