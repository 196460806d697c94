/**
 * No exported name may shadow a global of the DOM, Web workers or Node: forget the import and code
 * would compile against the global instead (`Event` was one: `TS2339: Property 'content' does not
 * exist on type 'Event'`). The names are the package's real exports, values and types, read by the
 * TypeScript compiler from the entry points.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const require = createRequire(import.meta.url);
const tsLib = dirname(require.resolve("typescript/lib/lib.dom.d.ts"));
const nodeTypes = dirname(require.resolve("@types/node/package.json"));

/** Names declared at the top level of the global declaration files. */
function globalNames(): Set<string> {
  const files = [
    ...readdirSync(tsLib)
      .filter((name) => /^lib\.(dom|webworker|es\d+|esnext|decorators|scripthost)(\..+)?\.d\.ts$/.test(name))
      .map((name) => join(tsLib, name)),
    join(nodeTypes, "globals.d.ts"),
    ...readdirSync(join(nodeTypes, "web-globals")).map((name) => join(nodeTypes, "web-globals", name)),
  ];
  const names = new Set<string>();
  const declaration =
    /^\s*(?:declare\s+)?(?:var|let|const|function|interface|class|type|namespace|enum)\s+([A-Za-z_$][\w$]*)/gm;
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(declaration)) names.add(match[1]!);
  }
  return names;
}

/** Every name exported by the package's entry points, values and types alike. */
function exportedNames(): Map<string, string> {
  const entries = [
    "src/index.ts",
    ...readdirSync(join(root, "src"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "internal")
      .map((entry) => `src/${entry.name}/index.ts`),
  ];
  const program = ts.createProgram(
    entries.map((entry) => join(root, entry)),
    {
      strict: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const names = new Map<string, string>();
  for (const entry of entries) {
    const source = program.getSourceFile(join(root, entry));
    if (!source) continue;
    const symbol = checker.getSymbolAtLocation(source);
    if (!symbol) continue;
    for (const exported of checker.getExportsOfModule(symbol)) names.set(exported.getName(), entry);
  }
  return names;
}

describe("exported names", () => {
  it("shadow no global of the DOM, Web workers or Node", () => {
    const globals = globalNames();
    expect(globals.has("Event")).toBe(true);
    expect(globals.has("Response")).toBe(true);
    const exported = exportedNames();
    expect(exported.size).toBeGreaterThan(100);
    const clashes = [...exported]
      .filter(([name]) => globals.has(name))
      .map(([name, entry]) => `${name} (${entry})`);
    expect(clashes).toEqual([]);
  });
});
