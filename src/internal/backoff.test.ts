import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exponentialDelay, jitter } from "./backoff.js";

describe("exponentialDelay", () => {
  it.each([
    [0, 100, 5_000, 100],
    [1, 100, 5_000, 200],
    [5, 100, 5_000, 3_200],
    [6, 100, 5_000, 5_000],
    [10_000, 100, 5_000, 5_000], // 2 ** 10000 overflows; the cap holds
    [10_000, 0, 5_000, 0],
    [3, 100, Number.POSITIVE_INFINITY, 800],
  ])("attempt %i from %i ms capped at %i ms waits %i ms", (attempt, min, max, expected) => {
    expect(exponentialDelay(attempt, min, max)).toBe(expected);
  });

  it("is never NaN and never above the cap", () => {
    fc.assert(
      fc.property(
        fc.nat(5_000),
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.nat(),
        (attempt, min, max) => {
          const delay = exponentialDelay(attempt, min, max);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(max);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("jitter", () => {
  it("spreads a delay over [low, high) of it", () => {
    expect(jitter(1_000, 0.5, 1, () => 0)).toBe(500);
    expect(jitter(1_000, 0.5, 1, () => 0.5)).toBe(750);
    expect(jitter(1_000, 0.8, 1.2, () => 0)).toBe(800);
    expect(jitter(1_000, 0.8, 1.2, () => 0.999)).toBeCloseTo(1_199.6);
  });

  it("stays in range with the real Math.random", () => {
    for (let i = 0; i < 200; i++) {
      const delay = jitter(1_000, 0.5, 1);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThan(1_000);
    }
  });
});
