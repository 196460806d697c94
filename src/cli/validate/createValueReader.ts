import { type CheckOptions, checkValue, jsonErrorPosition } from "./checkValue.js";
import type { LineSink } from "./createLineSplitter.js";
import { splitJsonValues } from "./splitJsonValues.js";
import type { ValueResult } from "./ValueResult.js";

/** How a source is read and checked. */
export interface ReaderOptions extends CheckOptions {
  /** The longest line read; a longer one is reported and skipped. */
  readonly maxLineBytes: number;
  /** The largest JSON document spread over several lines (pretty-printed) that is read whole. */
  readonly maxDocumentBytes: number;
}

/** Turns the lines of one source into results, one per value. */
export interface ValueReader extends LineSink {
  /** The source has ended: checks what is still held. */
  end(): void;
}

interface HeldLine {
  readonly text: string;
  readonly number: number;
}

const opensValue = /^\s*[[{]/;
const blank = /^\s*$/;

/**
 * Reads NDJSON line by line (a line holding an array gives one value per element), and falls back
 * to a JSON document spread over several lines when the first two lines that are not blank are not
 * JSON on their own and the first opens an object or array (pretty-printed JSON, or `jq` output).
 * Only such a document is held in memory, up to `maxDocumentBytes`; NDJSON holds one line at a
 * time.
 */
export function createValueReader(
  file: string,
  options: ReaderOptions,
  report: (result: ValueResult) => void,
): ValueReader {
  let mode: "detect" | "lines" | "document" = "detect";
  const held: HeldLine[] = [];
  let documentBytes = 0;
  let abandoned = false;

  const failure = (line: number, code: string, issueCode: string, message: string): ValueResult => ({
    file,
    line,
    valid: false,
    code,
    issues: [{ pointer: "", code: issueCode, message }],
  });
  const malformed = (line: number, message: string) =>
    report(failure(line, "ERR_MALFORMED_JSON", "malformed_json", message));

  const checkParsed = (value: unknown, line: number) => {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++)
        report(checkValue(value[index], options, file, line, index));
    } else report(checkValue(value, options, file, line, undefined));
  };

  const checkLine = (text: string, number: number) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (blank.test(text)) return;
      const at = jsonErrorPosition(error);
      malformed(number, `the line is not valid JSON${at === undefined ? "" : ` (column ${at + 1})`}`);
      return;
    }
    checkParsed(value, number);
  };

  const parses = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };

  const toLines = () => {
    mode = "lines";
    const first = held.shift();
    if (first !== undefined) checkLine(first.text, first.number);
    held.length = 0;
  };

  const checkDocument = () => {
    if (abandoned || held.length === 0) return;
    const firstLine = held[0]!.number;
    const text = held.map((line) => line.text).join("\n");
    held.length = 0;
    // Line numbers of offsets, counted forwards once.
    let counted = 0;
    let line = firstLine;
    const lineAt = (offset: number) => {
      for (; counted < offset; counted++) if (text.charCodeAt(counted) === 10) line++;
      return line;
    };
    for (const [start, end] of splitJsonValues(text, 0, text.length)) {
      const startLine = lineAt(start);
      let value: unknown;
      try {
        value = JSON.parse(text.slice(start, end));
      } catch (error) {
        const at = jsonErrorPosition(error);
        if (at === undefined) malformed(startLine, "the JSON value that starts here is not valid");
        else {
          const offset = start + at;
          const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
          const errorLine = startLine + countNewlines(text, start, offset);
          malformed(
            startLine,
            `the JSON value that starts here is not valid (line ${errorLine}, column ${offset - lineStart + 1})`,
          );
        }
        continue;
      }
      if (!Array.isArray(value)) {
        report(checkValue(value, options, file, startLine, undefined));
        continue;
      }
      const elements = splitJsonValues(text, start + 1, end - 1);
      for (let index = 0; index < value.length; index++) {
        const elementLine = lineAt(elements[index]?.[0] ?? start);
        report(checkValue(value[index], options, file, elementLine, index));
      }
    }
  };

  return {
    line(text, number) {
      if (mode === "lines") return checkLine(text, number);
      if (mode === "document") {
        if (abandoned) return;
        documentBytes += text.length + 1;
        if (documentBytes > options.maxDocumentBytes) {
          abandoned = true;
          report(
            failure(
              held[0]!.number,
              "ERR_DOCUMENT_TOO_LARGE",
              "document_too_large",
              `the JSON document that starts here is larger than ${options.maxDocumentBytes} bytes (--max-document-bytes): skipped`,
            ),
          );
          held.length = 0;
          return;
        }
        held.push({ text, number });
        return;
      }
      // Detecting: the first line, BOM removed.
      const line = number === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      if (held.length === 0) {
        if (blank.test(line)) return;
        if (parses(line) || !opensValue.test(line)) {
          mode = "lines";
          checkLine(line, number);
        } else held.push({ text: line, number });
        return;
      }
      if (blank.test(line)) {
        held.push({ text: line, number });
        return;
      }
      if (parses(line)) {
        toLines();
        checkLine(line, number);
        return;
      }
      mode = "document";
      held.push({ text: line, number });
      documentBytes = held.reduce((sum, { text: heldText }) => sum + heldText.length + 1, 0);
    },
    tooLong(number, bytes) {
      const skipped = failure(
        number,
        "ERR_LINE_TOO_LONG",
        "line_too_long",
        `the line is ${bytes} bytes long, more than ${options.maxLineBytes} (--max-line-bytes): skipped`,
      );
      if (mode === "document") {
        if (!abandoned) report(skipped);
        abandoned = true;
        held.length = 0;
        return;
      }
      if (mode === "detect") toLines();
      report(skipped);
    },
    notUtf8(number) {
      const bad = failure(
        number,
        "ERR_MALFORMED_JSON",
        "malformed_json",
        "the line is not UTF-8 text, as JSON text must be",
      );
      if (mode === "document") {
        if (!abandoned) report(bad);
        abandoned = true;
        held.length = 0;
        return;
      }
      if (mode === "detect") toLines();
      report(bad);
    },
    end() {
      if (mode === "detect") toLines();
      else if (mode === "document") checkDocument();
    },
  };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index++) if (text.charCodeAt(index) === 10) count++;
  return count;
}
