/**
 * Characters that could forge, break or hide a log line: C0 controls, DEL, C1 controls, the line
 * and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

const escaped = (char: string): string =>
  SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * A string a service sent, as an error keeps it: each character that could forge or hide a log line
 * written as an escape (`\n`, `\u001b`, `\u202e`), then cut to `max` characters with an ellipsis,
 * never inside an escape or a surrogate pair. Costs at most `max` steps, however long the string.
 */
export function keptString(value: string, max: number): string {
  if (value.length <= max && !UNSAFE.test(value)) return value;
  let kept = "";
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && (value.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
    const char = pair ? value.slice(index, index + 2) : value.charAt(index);
    const piece = UNSAFE.test(char) ? escaped(char) : char;
    if (kept.length + piece.length > max) return `${kept}…`;
    kept += piece;
    if (pair) index++;
  }
  return kept;
}
