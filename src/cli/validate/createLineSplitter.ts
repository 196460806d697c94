/** What a {@link createLineSplitter} hands on: each line, or the number of a line that was too long. */
export interface LineSink {
  /** A whole line, decoded as UTF-8, without its line break (`\n` or `\r\n`). Numbers start at 1. */
  line(text: string, number: number): void;
  /** A line longer than the cap: it was skipped, never held in memory. */
  tooLong(number: number, bytes: number): void;
  /** A line whose bytes are not UTF-8 (JSON text is UTF-8; the server answers 400 to them). */
  notUtf8(number: number): void;
}

/** Splits a byte stream into lines of bounded size. */
export interface LineSplitter {
  /** Takes the next chunk; complete lines are handed on at once. */
  push(chunk: Uint8Array): void;
  /** Hands on the last line if the stream did not end with a line break. */
  end(): void;
}

const NEWLINE = 10;
// Fatal, as the server decodes a body: invalid UTF-8 is an error, not a U+FFFD to validate; a BOM is
// kept (the reader drops one at the start of a source).
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes, or `undefined` when they are not UTF-8. */
function decoded(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Splits bytes into lines without ever holding more than one line (at most `maxLineBytes`) plus
 * the current chunk: a longer line is counted, reported to `tooLong` and skipped. Memory stays
 * constant whatever the size of the stream.
 */
export function createLineSplitter(maxLineBytes: number, sink: LineSink): LineSplitter {
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let skipping = false;
  let skipped = 0;
  // The last byte skipped so far: a `\r` there belongs to the line break, not to the line.
  let skippedLast = -1;
  let number = 0;

  const finish = (last: Uint8Array) => {
    number++;
    if (skipping) {
      const lastByte = last.length > 0 ? last[last.length - 1] : skippedLast;
      sink.tooLong(number, skipped + last.length - (lastByte === 13 ? 1 : 0));
      skipping = false;
      skipped = 0;
      skippedLast = -1;
      return;
    }
    let bytes = last;
    if (partBytes > 0) {
      bytes = new Uint8Array(partBytes + last.length);
      let offset = 0;
      for (const part of parts) {
        bytes.set(part, offset);
        offset += part.length;
      }
      bytes.set(last, offset);
      parts = [];
      partBytes = 0;
    }
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 13) end--;
    if (end > maxLineBytes) {
      sink.tooLong(number, end);
      return;
    }
    const text = decoded(end === bytes.length ? bytes : bytes.subarray(0, end));
    if (text === undefined) sink.notUtf8(number);
    else sink.line(text, number);
  };

  return {
    push(chunk) {
      let start = 0;
      // The complete lines of a chunk that carries nothing over, decoded in one call: the bytes give
      // each line's exact length, the text its characters (a 0x0A byte is never inside a UTF-8
      // character, so each byte line break is one text line break). Bytes that are not UTF-8 take
      // the line by line way below, which says which line.
      if (!skipping && partBytes === 0) {
        const lastBreak = chunk.lastIndexOf(NEWLINE);
        const text = lastBreak >= 0 ? decoded(chunk.subarray(0, lastBreak + 1)) : undefined;
        if (text !== undefined) {
          let from = 0;
          let textFrom = 0;
          while (from <= lastBreak) {
            const at = chunk.indexOf(NEWLINE, from);
            const textAt = text.indexOf("\n", textFrom);
            number++;
            let byteLength = at - from;
            let line = text.slice(textFrom, textAt);
            if (byteLength > 0 && chunk[at - 1] === 13) {
              byteLength--;
              line = line.slice(0, -1);
            }
            if (byteLength > maxLineBytes) sink.tooLong(number, byteLength);
            else sink.line(line, number);
            from = at + 1;
            textFrom = textAt + 1;
          }
          start = lastBreak + 1;
        }
      }
      for (;;) {
        const newline = chunk.indexOf(NEWLINE, start);
        if (newline === -1) {
          const rest = chunk.length - start;
          if (rest === 0) return;
          skippedLast = chunk[chunk.length - 1]!;
          if (skipping) skipped += rest;
          else if (partBytes + rest > maxLineBytes + 1) {
            // One byte of slack for a `\r` before the line break.
            skipping = true;
            skipped = partBytes + rest;
            parts = [];
            partBytes = 0;
          } else {
            // A copy: the chunk itself is not kept alive by a partial line.
            parts.push(new Uint8Array(chunk.subarray(start)));
            partBytes += rest;
          }
          return;
        }
        finish(chunk.subarray(start, newline));
        start = newline + 1;
      }
    },
    end() {
      if (skipping || partBytes > 0) finish(new Uint8Array(0));
    },
  };
}
