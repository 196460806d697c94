import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength } from "./codePointLength.js";

describe("codePointLength", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["😀", 1],
    ["a😀b", 3],
    ["e\u0301", 2],
    ["🇩🇪", 2],
    ["\ud83d", 1],
    ["\ude00\ud83d", 2],
    ["\ud83d\ud83d\ude00", 2],
  ])("counts %j as %i code points", (value, expected) => {
    expect(codePointLength(value)).toBe(expected);
  });

  it("agrees with the string iterator on any UTF-16 string, lone surrogates included", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
        (value) => {
          expect(codePointLength(value)).toBe([...value].length);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
