/**
 * How long a `Retry-After` header asks to wait, in milliseconds (RFC 9110): delay-seconds (`"120"`)
 * or an HTTP date (`"Wed, 21 Oct 2026 07:28:00 GMT"`, measured from `now`; a past date means 0).
 * Anything else (absent, `"1.5"`, `"-1"`, a date without `GMT`) is `undefined`: the caller falls back
 * to its own backoff. Never throws.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (typeof value !== "string" || value.length > 64) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always ends in GMT; Date.parse alone would accept far more than HTTP allows.
  if (!/^[A-Za-z]+,? .*GMT$/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
