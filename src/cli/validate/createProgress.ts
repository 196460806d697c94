import type { Output } from "../output.js";
import { plural } from "../wording.js";
import type { Tally } from "./createReporter.js";

/** How often the progress line is redrawn, at most. */
export const PROGRESS_INTERVAL_MS = 200;

/** A progress line on a terminal: redrawn in place while a long run reads, erased at the end. */
export interface Progress {
  /** Counts `bytes` more read, and redraws the line if the last redraw is old enough. */
  read(bytes: number): void;
  /** Erases the line (the summary follows on standard output). */
  done(): void;
}

const MIB = 1024 * 1024;

/** `12.3 MiB`, `512 KiB`, `800 B`. */
function size(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

/** The line: values and bytes done, the rate, and the problems found so far. */
export function progressLine(tally: Tally, bytes: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? `${size(Math.round((bytes / elapsedMs) * 1000))}/s` : "";
  const problems = tally.invalid + tally.malformed + tally.tooLong;
  const parts = [
    `${plural(tally.values, "value")}`,
    size(bytes),
    rate,
    problems === 0 ? "no problems so far" : `${plural(problems, "problem")} so far`,
  ].filter((part) => part !== "");
  return parts.join(", ");
}

/**
 * A progress line on standard error for `validate`, when it is a terminal: at most every
 * {@link PROGRESS_INTERVAL_MS}, `\r` then the line and an erase to its end, so it stays one line.
 * Nothing at all for a pipe or a file (the caller passes `undefined` then).
 */
export function createProgress(stderr: Output, tally: Tally, now: () => number = Date.now): Progress {
  const started = now();
  let bytes = 0;
  let drawnAt = started;
  let drawn = false;
  return {
    read(more) {
      bytes += more;
      const at = now();
      if (at - drawnAt < PROGRESS_INTERVAL_MS) return;
      drawnAt = at;
      drawn = true;
      stderr.write(`\r${progressLine(tally, bytes, at - started)}\u001b[K`);
      void stderr.flush();
    },
    done() {
      if (!drawn) return;
      stderr.write("\r\u001b[K");
      void stderr.flush();
    },
  };
}
