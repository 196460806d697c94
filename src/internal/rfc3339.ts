const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)t(\d\d):(\d\d):(\d\d)(\.\d+)?(?:z|([+-])(\d\d):(\d\d))$/i;

/**
 * Parses any RFC 3339 date-time (section 5.6: `T`/`t`, `Z`/`z`, fractional seconds, a numeric
 * offset, a leap second) into epoch milliseconds, or returns `undefined`. No `Date.parse`, whose
 * leniency differs between engines.
 */
export function parseRfc3339(value: string): number | undefined {
  const match = RFC3339.exec(value);
  if (!match) return undefined;
  // Absent groups become NaN, which every comparison below lets through and `|| 0` zeroes.
  const [, year, month, day, hour, minute, second, fraction, , offsetHours, offsetMinutes] = match.map(
    Number,
  ) as number[];
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day);
  // A day the month does not have rolls over into another month: that is how it is caught.
  if (
    date.getUTCMonth() !== month! - 1 ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 60 ||
    offsetHours! > 23 ||
    offsetMinutes! > 59
  ) {
    return undefined;
  }
  date.setUTCHours(hour!, minute!, second!, (fraction! || 0) * 1000);
  return +date - (match[8] === "-" ? -1 : 1) * ((offsetHours! || 0) * 60 + (offsetMinutes! || 0)) * 60_000;
}
