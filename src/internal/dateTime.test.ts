import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateTimeRows } from "../../test/conformance/handwrittenCases.js";
import { dateTime as validDateTime } from "../../test/support/validContent.js";
import { DATE_TIME_PATTERN } from "./dateTime.js";

/** An independent reading of the date-time rule, written with Date arithmetic instead of one regular expression. */
function referenceIsDateTime(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(
    value,
  );
  if (!match) return false;
  const [, y, mo, d, h, mi, s, , , , oh, om] = match.map((part) => part ?? "");
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  const realDay =
    probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  const offsetOk = oh === "" || (Number(oh) <= 23 && Number(om) <= 59);
  return realDay && Number(h) <= 23 && Number(mi) <= 59 && Number(s) <= 59 && offsetOk;
}

const digits = (count: number) => fc.stringMatching(new RegExp(`^[0-9]{${count}}$`));

/** Strings shaped like date-times, with any digits in each slot: most are near misses. */
const dateTimeShaped = fc
  .tuple(
    digits(4),
    digits(2),
    digits(2),
    digits(2),
    digits(2),
    digits(2),
    fc.option(fc.stringMatching(/^\.[0-9]{1,4}$/), { nil: "" }),
    fc.oneof(
      fc.constant("Z"),
      fc.tuple(fc.constantFrom("+", "-"), digits(2), digits(2)).map(([sign, h, m]) => `${sign}${h}:${m}`),
    ),
  )
  .map(([y, mo, d, h, mi, s, frac, offset]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${offset}`);

describe("DATE_TIME_PATTERN: RFC 3339 with an offset, on real calendar days", () => {
  it.each(dateTimeRows)("%j is %s", (value, expected) => {
    expect(DATE_TIME_PATTERN.test(value)).toBe(expected);
    expect(referenceIsDateTime(value)).toBe(expected);
  });

  it("accepts every generated RFC 3339 date-time with offset", () => {
    fc.assert(
      fc.property(validDateTime, (value) => {
        expect(DATE_TIME_PATTERN.test(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with a Date-based reference on date-time-shaped strings", () => {
    fc.assert(
      fc.property(dateTimeShaped, (value) => {
        expect(DATE_TIME_PATTERN.test(value)).toBe(referenceIsDateTime(value));
      }),
      { numRuns: 5000 },
    );
  });

  it("knows the leap years across four centuries", () => {
    for (let year = 1600; year <= 2400; year++) {
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      expect(DATE_TIME_PATTERN.test(`${year}-02-29T00:00:00Z`), String(year)).toBe(leap);
    }
  });
});
