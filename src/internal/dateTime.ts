import * as z from "zod/mini";

// A real calendar day: 29 February only in leap years (divisible by 4, not by 100 unless by 400).
const leapDay = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29";
const ordinaryDay =
  "[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))";
const time = "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?";
const offset = "(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])";

/**
 * RFC 3339 `date-time` as the library reads it: a real calendar day, `T`, a time with seconds and
 * optional fractional seconds, and an offset (`Z` or `±hh:mm`). It uses only the regular
 * expression syntax that JSON Schema validators in other languages share, because the generated
 * JSON Schema carries it as `pattern`.
 */
export const DATE_TIME_PATTERN: RegExp = new RegExp(`^(?:${leapDay}|${ordinaryDay})T${time}${offset}$`);

/**
 * A string schema for the spec's `date-time` fields. Failures are `invalid_format` issues with
 * format `date-time`; the generated JSON Schema says `format: "date-time"` plus the exact pattern,
 * so every validator agrees with this one.
 */
// @__NO_SIDE_EFFECTS__
export function dateTime(): z.ZodMiniCustomStringFormat<"date-time"> {
  return z.stringFormat("date-time", DATE_TIME_PATTERN);
}
