import { describe, expect, it } from "vitest";
import { humanDuration } from "./humanDuration.js";

describe("humanDuration", () => {
  it.each([
    [0, "0 seconds"],
    [1_400, "1 second"],
    [59_700, "59 seconds"],
    [300_000, "5 minutes"],
    [-7_200_000, "2 hours"],
    [3 * 86_400_000, "3 days"],
    // What a capture of 2023 checked in 2026 showed as "97704788.937 s".
    [97_704_788_937, "3 years"],
  ])("%d ms is %s", (ms, words) => {
    expect(humanDuration(ms)).toBe(words);
  });
});
