import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editDistance } from "./editDistance.js";

/** The textbook distance, with the whole table: what the early exits must agree with. */
function reference(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      table[i]![j] = Math.min(
        table[i - 1]![j]! + 1,
        table[i]![j - 1]! + 1,
        table[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
  return table[a.length]![b.length]!;
}

describe("editDistance", () => {
  it.each([
    ["s.message.txt", "s.message.text", 1],
    ["--tolerance", "--tolerance-ms", 3],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
  ])("%s ~ %s: %i", (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
  });

  it("is the textbook distance below the limit, and the limit at or above it", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        fc.integer({ min: 1, max: 14 }),
        (a, b, limit) => {
          const exact = reference(a, b);
          expect(editDistance(a, b)).toBe(exact);
          expect(editDistance(a, b, limit)).toBe(Math.min(exact, limit));
        },
      ),
      { numRuns: 500 },
    );
  });
});
