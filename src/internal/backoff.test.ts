import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exponentialDelay, jitter, plannedRetryDelay } from "./backoff.js";

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
  it("spreads a delay within ±spread of it", () => {
    expect(jitter(1_000, 0.2, () => 0)).toBe(800);
    expect(jitter(1_000, 0.2, () => 0.5)).toBe(1_000);
    expect(jitter(1_000, 0.2, () => 0.999)).toBeCloseTo(1_199.6);
    expect(jitter(1_000, 0, () => 0.3)).toBe(1_000);
  });

  it("stays in range with the real Math.random", () => {
    for (let i = 0; i < 200; i++) {
      const delay = jitter(1_000, 0.5);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThan(1_500);
    }
  });

  it("never leaves [delay * (1 - spread), delay * (1 + spread)) for a spread below 1", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e12, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (delay, spread, draw) => {
          const spreadDelay = jitter(delay, spread, () => draw);
          expect(spreadDelay).toBeGreaterThanOrEqual(delay * (1 - spread) * (1 - 1e-12));
          expect(spreadDelay).toBeLessThanOrEqual(delay * (1 + spread));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("plannedRetryDelay", () => {
  const retry = { delaysMs: [100, 200, 400], jitter: 0.5 };

  it("takes the wait of each retry in turn, spread, and none after the last", () => {
    expect([0, 1, 2, 3].map((index) => plannedRetryDelay(retry, index, () => 0.5))).toEqual([
      100,
      200,
      400,
      undefined,
    ]);
    expect(plannedRetryDelay(retry, 2, () => 0)).toBe(200);
    expect(plannedRetryDelay({ ...retry, jitter: 0 }, 2, () => 0.9)).toBe(400);
  });

  it("plans no retry at all for [] (a single attempt)", () => {
    expect(plannedRetryDelay({ delaysMs: [], jitter: 0.2 }, 0)).toBeUndefined();
  });
});
