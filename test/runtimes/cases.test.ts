/** The runtime suite's copy of the conformance table is current, and the suite passes on this Node. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runtimeCasesJson } from "../../scripts/runtime-cases.js";

describe("runtime conformance suite", () => {
  it("test/runtimes/cases.json is the current conformance table (npx tsx scripts/runtime-cases.ts)", () => {
    expect(readFileSync(new URL("./cases.json", import.meta.url), "utf8")).toBe(runtimeCasesJson());
  });
});
