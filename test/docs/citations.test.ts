/**
 * Users see the package, not the project's working papers: no page of the docs (the README, the
 * CHANGELOG, docs/*.md) and no file under src/ (JSDoc, messages, test names) may point at them, by the name of the rulings file, by a
 * ruling's number, or by a section number of the service's description. The docs state each
 * reading in their own words instead (docs/readings.md), and link there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replace(/\\/g, "/"));
}

const files = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...filesUnder("src"),
];

/** What users cannot follow: the rulings file, its rulings, section numbers of the description. */
const citations: readonly [string, RegExp][] = [
  ["a ruling", /\brulings?\b/gi],
  ["the rulings file", /DECISIONS\.md/gi],
  ["a section of the description", /\bspec \d+(?:\.\d+)?\b/gi],
];

describe("the docs and the source cite nothing users cannot see", () => {
  it("reads README.md, CHANGELOG.md, docs/*.md and src/", () => {
    expect(files).toContain("docs/readings.md");
    expect(files.filter((file) => file.startsWith("src/")).length).toBeGreaterThan(50);
  });

  it.each(citations)("no file cites %s", (_what, pattern) => {
    const found: string[] = [];
    for (const file of files) {
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (line.match(pattern)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });
});
