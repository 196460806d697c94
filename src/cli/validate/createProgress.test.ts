import { describe, expect, it } from "vitest";
import type { Output } from "../output.js";
import { createProgress, PROGRESS_INTERVAL_MS, progressLine } from "./createProgress.js";
import type { Tally } from "./createReporter.js";

const tally = (values: number, invalid = 0): Tally => ({
  values,
  valid: values - invalid,
  invalid,
  malformed: 0,
  tooLong: 0,
});

function recording(): Output & { readonly text: () => string } {
  const written: string[] = [];
  return { write: (text) => void written.push(text), flush: async () => {}, text: () => written.join("") };
}

describe("progressLine", () => {
  it("says values and bytes done, the rate and the problems so far", () => {
    expect(progressLine(tally(12_345, 2), 3 * 1024 * 1024, 2_000)).toBe(
      "12345 values, 3.0 MiB, 1.5 MiB/s, 2 problems so far",
    );
    expect(progressLine(tally(1), 800, 0)).toBe("1 value, 800 B, no problems so far");
  });
});

describe("createProgress", () => {
  it("redraws at most every interval, in place, and erases the line at the end", () => {
    let now = 0;
    const out = recording();
    const counts = tally(0);
    const progress = createProgress(out, counts, () => now);
    progress.read(100);
    expect(out.text()).toBe("");
    now = PROGRESS_INTERVAL_MS;
    counts.values = 5;
    counts.valid = 5;
    progress.read(100);
    now += PROGRESS_INTERVAL_MS - 1;
    progress.read(100);
    expect(out.text()).toBe("\r5 values, 200 B, 1000 B/s, no problems so far\u001b[K");
    progress.done();
    expect(out.text().endsWith("\r\u001b[K")).toBe(true);
  });

  it("writes nothing at all when the run ends before the first redraw", () => {
    const out = recording();
    const progress = createProgress(out, tally(3), () => 0);
    progress.read(10);
    progress.done();
    expect(out.text()).toBe("");
  });
});
