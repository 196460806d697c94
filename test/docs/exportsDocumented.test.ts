/**
 * No export goes undocumented: every export of every public subpath (the `exports` of package.json
 * but the root, which re-exports five of them, and the JSON Schema files) is collected with the
 * TypeScript compiler from its entry point, src/<subpath>/index.ts, and must be named in inline code
 * (`` `Name` ``, `` `Name(…)` `` or `` `Name<…>` ``) in README.md or a page of docs/. The API overview,
 * docs/api-overview.md, is complete per subpath: its `## messaging-events/<subpath>` section names
 * every export of that subpath.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The public subpaths, from package.json: `events`, `server/redis`, … */
function subpaths(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    exports: Record<string, unknown>;
  };
  return Object.keys(manifest.exports)
    .filter((key) => key.startsWith("./") && !key.includes("*") && !key.endsWith(".json"))
    .map((key) => key.slice(2));
}

/** Every export name of each subpath's entry point, by subpath. */
function exportsBySubpath(): Map<string, string[]> {
  const entries = new Map(subpaths().map((subpath) => [subpath, join(root, "src", subpath, "index.ts")]));
  const program = ts.createProgram([...entries.values()], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const found = new Map<string, string[]>();
  for (const [subpath, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`no entry point for messaging-events/${subpath}: ${file}`);
    found.set(
      subpath,
      checker
        .getExportsOfModule(module)
        .map((symbol) => symbol.name)
        .sort(),
    );
  }
  return found;
}

/** Whether markdown names an export in inline code: `Name`, `Name(…)` or `Name<…>`. */
function mentions(markdown: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\`${escaped}[\`(<]`).test(markdown);
}

/** Each `## messaging-events/<subpath>` section of the API overview, by subpath. */
function overviewSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  const close = () => {
    if (current !== undefined) sections.set(current, lines.join("\n"));
  };
  for (const line of markdown.split("\n")) {
    const heading = /^##\s+(.*?)\s*$/.exec(line);
    if (heading) {
      close();
      const subpath = /^messaging-events\/(\S+)$/.exec(heading[1]!)?.[1];
      current = subpath;
      lines = [];
      continue;
    }
    lines.push(line);
  }
  close();
  return sections;
}

const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
].map((path) => readFileSync(join(root, path), "utf8"));
const overview = readFileSync(join(root, "docs/api-overview.md"), "utf8");
const exported = exportsBySubpath();

describe("every export is documented", () => {
  it("collects the exports of every public subpath", () => {
    expect([...exported.keys()]).toEqual(
      expect.arrayContaining(["events", "webhooks", "server/redis", "dispatch/bullmq"]),
    );
    for (const [subpath, names] of exported) expect(names.length, subpath).toBeGreaterThan(0);
  });

  it("README.md or a page of docs/ names every export in inline code", () => {
    const missing = [...exported]
      .flatMap(([subpath, names]) =>
        names
          .filter((name) => !docs.some((page) => mentions(page, name)))
          .map((name) => `messaging-events/${subpath}: ${name}`),
      )
      .sort();
    expect(missing).toEqual([]);
  });

  it("the API overview's section of each subpath names every export of it", () => {
    const sections = overviewSections(overview);
    const missing: string[] = [];
    for (const [subpath, names] of exported) {
      const section = sections.get(subpath);
      if (section === undefined) {
        missing.push(`messaging-events/${subpath}: no "## messaging-events/${subpath}" section`);
        continue;
      }
      for (const name of names.filter((name) => !mentions(section, name)))
        missing.push(`messaging-events/${subpath}: ${name}`);
    }
    expect(missing.sort()).toEqual([]);
  });

  it("a mention is the name in inline code, not a longer name nor plain text", () => {
    expect(mentions("`parseEvent(value)`", "parseEvent")).toBe(true);
    expect(mentions("`EventContent<T>`", "EventContent")).toBe(true);
    expect(mentions("the `ClaimResult`.", "ClaimResult")).toBe(true);
    expect(mentions("`parseEventContent(type)`", "parseEvent")).toBe(false);
    expect(mentions("`client.parseEvent`", "parseEvent")).toBe(false);
    expect(mentions("parseEvent", "parseEvent")).toBe(false);
  });
});
