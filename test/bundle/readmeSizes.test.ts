/**
 * The bundle-size table of docs/performance.md is what the built package measures today: every
 * import it lists is bundled again from dist/ (esbuild --minify, gzip -9) and the fresh table must
 * equal the page's, to the hundredth of a KB. When it does not, the fresh table is printed:
 * regenerate it with `npx tsx scripts/sizes.ts` after `npm run build` (or copy it between the markers).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  measureSizes,
  SIZES_END,
  SIZES_PAGE,
  SIZES_START,
  sizesTable,
  writtenSizesTable,
} from "../../scripts/sizes.js";

const root = new URL("../../", import.meta.url);
const page = readFileSync(new URL(SIZES_PAGE, root), "utf8");

describe("bundle sizes", () => {
  it(`has one table between the size markers, in ${SIZES_PAGE}`, () => {
    expect(page.split(SIZES_START).length, `${SIZES_PAGE} needs exactly one ${SIZES_START}`).toBe(2);
    expect(page.split(SIZES_END).length, `${SIZES_PAGE} needs exactly one ${SIZES_END}`).toBe(2);
    expect(writtenSizesTable(page)).toMatch(/^\| Import \| min\+gzip \| Zod \|/);
  });

  it("lists exactly what the built package measures now", async () => {
    const fresh = sizesTable(await measureSizes());
    const written = writtenSizesTable(page);
    if (written !== fresh) {
      console.log(
        `\n${SIZES_PAGE}: the bundle sizes are stale. Run \`npx tsx scripts/sizes.ts\` after a build, or put this between the markers:\n\n${fresh}\n`,
      );
    }
    expect(written, `${SIZES_PAGE}'s bundle-size table (fresh table printed above)`).toBe(fresh);
  });

  it("states no bundle size outside the generated tables, in the README or the docs", () => {
    // The performance section is written by `npx tsx bench/content.ts --write-readme`, which
    // measures the peers' bundles in the same run: generated too.
    const withoutGenerated = (text: string) =>
      [
        [SIZES_START, SIZES_END],
        ["<!-- bench:start -->", "<!-- bench:end -->"],
      ].reduce((rest, [start, end]) => {
        const from = rest.indexOf(start!);
        return from === -1 ? rest : rest.slice(0, from) + rest.slice(rest.indexOf(end!, from));
      }, text);
    const pages = [
      "README.md",
      ...readdirSync(new URL("docs/", root))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    for (const name of pages) {
      const text = withoutGenerated(readFileSync(new URL(name, root), "utf8"));
      // Sizes in KB or MB drift with every build; only the generated tables may state them.
      expect(text.match(/\d+(?:\.\d+)?\s?[kKM]B\b/g) ?? [], name).toEqual([]);
    }
  });
});
