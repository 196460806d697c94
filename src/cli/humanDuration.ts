import { plural } from "./wording.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;

/**
 * A length of time as a person says it, rounded to the largest unit that fits: "42 seconds",
 * "5 minutes", "3 hours", "12 days", "3 years". The sign is ignored.
 */
export function humanDuration(ms: number): string {
  const span = Math.abs(ms);
  if (span < MINUTE) return plural(Math.min(59, Math.round(span / SECOND)), "second");
  if (span < HOUR) return plural(Math.floor(span / MINUTE), "minute");
  if (span < DAY) return plural(Math.floor(span / HOUR), "hour");
  if (span < YEAR) return plural(Math.floor(span / DAY), "day");
  return plural(Math.floor(span / YEAR), "year");
}
