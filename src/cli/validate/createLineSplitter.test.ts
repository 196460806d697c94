import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineSplitter } from "./createLineSplitter.js";

function split(chunks: readonly Uint8Array[], max: number) {
  const seen: (string | { tooLong: number; bytes: number } | { notUtf8: number })[] = [];
  const splitter = createLineSplitter(max, {
    line: (text) => seen.push(text),
    tooLong: (number, bytes) => seen.push({ tooLong: number, bytes }),
    notUtf8: (number) => seen.push({ notUtf8: number }),
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return seen;
}

describe("createLineSplitter", () => {
  it("gives the same lines however the bytes are chunked, CRLF included, long lines reported", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, "")),
          { maxLength: 12 },
        ),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 10 }),
        (lines, crlf, cuts) => {
          const text = lines.map((line) => `${line}${crlf ? "\r\n" : "\n"}`).join("");
          const bytes = new TextEncoder().encode(text);
          const chunks: Uint8Array[] = [];
          let offset = 0;
          for (let index = 0; offset < bytes.length; index++) {
            const size = cuts[index % cuts.length]!;
            chunks.push(bytes.subarray(offset, offset + size));
            offset += size;
          }
          const max = 40;
          const expected = lines.map((line, index) => {
            const length = new TextEncoder().encode(line).length;
            return length > max ? { tooLong: index + 1, bytes: length } : line;
          });
          expect(split(chunks, max)).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("counts a long line's bytes without the \r of its CRLF, wherever the chunks are cut", () => {
    const line = "x".repeat(50);
    for (let size = 1; size <= 53; size++) {
      const bytes = new TextEncoder().encode(`${line}\r\nok\r\n`);
      const chunks: Uint8Array[] = [];
      for (let offset = 0; offset < bytes.length; offset += size)
        chunks.push(bytes.subarray(offset, offset + size));
      expect(split(chunks, 40), `chunks of ${size}`).toEqual([{ tooLong: 1, bytes: 50 }, "ok"]);
    }
  });

  it("reports a line that is not UTF-8 by its number, however the chunks are cut, and keeps the others", () => {
    // A lone continuation byte, a truncated sequence, an overlong encoding and a surrogate.
    const bad = [[0x80], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80]];
    for (const sequence of bad) {
      const bytes = Uint8Array.from([
        ...new TextEncoder().encode("é ok\n{"),
        ...sequence,
        ...new TextEncoder().encode("}\r\n€ ok\nlast"),
      ]);
      for (let size = 1; size <= bytes.length; size++) {
        const chunks: Uint8Array[] = [];
        for (let offset = 0; offset < bytes.length; offset += size)
          chunks.push(bytes.subarray(offset, offset + size));
        expect(split(chunks, 40), `${sequence} in chunks of ${size}`).toEqual([
          "é ok",
          { notUtf8: 2 },
          "€ ok",
          "last",
        ]);
      }
    }
  });

  it("keeps the last line without a line break", () => {
    expect(split([new TextEncoder().encode("a\nb")], 10)).toEqual(["a", "b"]);
  });
});
