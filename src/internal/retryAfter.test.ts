import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retryAfter.js";

const now = Date.parse("2026-10-21T07:28:00Z");

describe("parseRetryAfter", () => {
  it.each([
    ["120", 120_000],
    ["0", 0],
    [" 7 ", 7_000],
    ["Wed, 21 Oct 2026 07:28:30 GMT", 30_000],
    ["Wednesday, 21-Oct-26 07:29:00 GMT", 60_000],
    ["Tue, 20 Oct 2026 07:28:00 GMT", 0], // a date in the past: at once
    [null, undefined],
    [undefined, undefined],
    ["", undefined],
    ["1.5", undefined],
    ["-1", undefined],
    ["+5", undefined],
    ["1e3", undefined],
    ["soon", undefined],
    ["2026-10-21T07:29:00Z", undefined], // not an HTTP date
    ["Wed, 32 Oct 2026 07:28:00 GMT", undefined],
    ["9".repeat(65), undefined], // longer than any sensible header
  ])("reads %j as %s ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it("never throws and never returns a negative or NaN delay", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{1,20}$/), fc.constant(null)), (value) => {
        const delay = parseRetryAfter(value, now);
        expect(delay === undefined || delay >= 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
