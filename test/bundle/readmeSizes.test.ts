/**
 * The README's bundle-size table is what the built package measures today: every import it lists is
 * bundled again from dist/ (esbuild --minify, gzip -9) and the fresh table must equal the README's,
 * to the hundredth of a KB. When it does not, the fresh table is printed: regenerate it with
 * `npx tsx scripts/sizes.ts` after `npm run build` (or copy it between the markers).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { measureSizes, readmeSizesTable, SIZES_END, SIZES_START, sizesTable } from "../../scripts/sizes.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const docs = new URL("../../docs/", import.meta.url);

describe("README bundle sizes", () => {
  it("has one table between the size markers", () => {
    expect(readme.split(SIZES_START).length, `README.md needs exactly one ${SIZES_START}`).toBe(2);
    expect(readme.split(SIZES_END).length, `README.md needs exactly one ${SIZES_END}`).toBe(2);
    expect(readmeSizesTable(readme)).toMatch(/^\| Import \| min\+gzip \| Zod \|/);
  });

  it("lists exactly what the built package measures now", async () => {
    const fresh = sizesTable(await measureSizes());
    const written = readmeSizesTable(readme);
    if (written !== fresh) {
      console.log(
        `\nREADME.md's bundle sizes are stale. Run \`npx tsx scripts/sizes.ts\` after a build, or put this between the markers:\n\n${fresh}\n`,
      );
    }
    expect(written, "README.md's bundle-size table (fresh table printed above)").toBe(fresh);
  });

  it("states no bundle size outside the generated tables, in the README or the docs", () => {
    // The performance section is written by `npx tsx bench/content.ts --write-readme`, which
    // measures the peers' bundles in the same run: generated too.
    const generated = (text: string, start: string, end: string) =>
      text.replace(text.slice(text.indexOf(start), text.indexOf(end)), "");
    const pages = [
      [
        "README.md",
        generated(generated(readme, SIZES_START, SIZES_END), "<!-- bench:start -->", "<!-- bench:end -->"),
      ],
      ...readdirSync(docs)
        .filter((name) => name.endsWith(".md"))
        .map((name) => [`docs/${name}`, readFileSync(new URL(name, docs), "utf8")]),
    ];
    for (const [name, text] of pages) {
      // Sizes in KB or MB drift with every build; only the generated table may state them.
      expect(text!.match(/\d+(?:\.\d+)?\s?[kKM]B\b/g) ?? [], name).toEqual([]);
    }
  });
});
