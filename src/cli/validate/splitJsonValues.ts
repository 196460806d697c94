/** Where one JSON value lies in a text: `[start, end)`. */
export type Span = readonly [start: number, end: number];

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

/**
 * The spans of the values in `text[from, to)` at nesting depth 0, separated by white space or
 * commas: the values of a stream of concatenated JSON (what `jq` prints), or, given the inside of
 * an array, its elements. It only finds boundaries (strings, escapes and brackets); each span is
 * then parsed on its own, so a broken value is reported alone.
 */
export function splitJsonValues(text: string, from: number, to: number): Span[] {
  const spans: Span[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  let scalar = false;
  const close = (end: number) => {
    spans.push([start, end]);
    start = -1;
    scalar = false;
  };
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 92) escaped = true;
      else if (code === 34) {
        inString = false;
        if (depth === 0) close(index + 1);
      }
      continue;
    }
    if (isSpace(code) || code === 44) {
      if (depth === 0 && scalar) close(index);
      continue;
    }
    if (depth === 0 && scalar) {
      if (code === 123 || code === 91 || code === 34) close(index);
      else continue;
    }
    if (code === 123 || code === 91) {
      if (depth === 0) start = index;
      depth++;
    } else if (code === 125 || code === 93) {
      depth--;
      if (depth === 0) close(index + 1);
      else if (depth < 0) {
        // A stray closing bracket: the rest is one broken value.
        if (start === -1) start = index;
        spans.push([start, to]);
        return spans;
      }
    } else if (code === 34) {
      if (depth === 0) start = index;
      inString = true;
    } else if (depth === 0) {
      start = index;
      scalar = true;
    }
  }
  if (start !== -1) spans.push([start, to]);
  return spans;
}
