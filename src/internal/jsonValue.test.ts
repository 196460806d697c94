import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findNonJson } from "./findNonJson.js";

describe("findNonJson", () => {
  it("finds nothing in any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(findNonJson(value)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("finds nothing in whatever JSON.parse returns", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(findNonJson(JSON.parse(JSON.stringify(value)))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("finds a non-JSON value wherever it is planted, with its path", () => {
    const planted = fc.constantFrom<[unknown, string]>(
      [undefined, "undefined"],
      [Number.NaN, "NaN"],
      [Number.NEGATIVE_INFINITY, "-Infinity"],
      [() => 0, "function"],
      [Symbol("x"), "symbol"],
      [1n, "bigint"],
      [new Date(0), "Date"],
      [new Set(), "Set"],
      [new (class Point {})(), "Point"],
    );
    const container = fc.array(fc.oneof(fc.constant("array"), fc.string({ minLength: 1, maxLength: 5 })), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(planted, container, ([bad, found], route) => {
        let value: unknown = bad;
        const path: (string | number)[] = [];
        for (const step of [...route].reverse()) {
          if (step === "array") {
            value = ["ok", value];
            path.unshift(1);
          } else {
            value = { ok: true, [step]: value };
            path.unshift(step);
          }
        }
        expect(findNonJson(value)).toEqual({ path, found });
      }),
      { numRuns: 1000 },
    );
  });
});
