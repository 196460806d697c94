/**
 * The docs are a map a newcomer can follow: the index (docs/README.md) and the README each link
 * every page of docs/, and the README stays a landing page, not a manual.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const guides = readdirSync(`${root}docs`).filter((name) => name.endsWith(".md") && name !== "README.md");

/** The pages of docs/ that a page links to, by file name. */
function linkedPages(page: string, prefix: string): Set<string> {
  const text = readFileSync(`${root}${page}`, "utf8");
  const pattern = new RegExp(`\\]\\(${prefix.replace(/[/.]/g, "\\$&")}([\\w.-]+\\.md)(?:#[^)]*)?\\)`, "g");
  return new Set([...text.matchAll(pattern)].map((match) => match[1]!));
}

describe("the map of the docs", () => {
  it("finds the guides", () => {
    expect(guides).toEqual(expect.arrayContaining(["receiving-webhooks.md", "validating-content.md"]));
  });

  it("docs/README.md links every page of docs/", () => {
    const linked = linkedPages("docs/README.md", "");
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it("README.md links every page of docs/", () => {
    const linked = linkedPages("README.md", "docs/");
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it("README.md is a landing page of a few hundred lines at most", () => {
    expect(readFileSync(`${root}README.md`, "utf8").split("\n").length).toBeLessThanOrEqual(300);
  });
});
