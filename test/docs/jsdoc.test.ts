/**
 * Every public export has JSDoc with a summary and an example, and every example compiles against
 * the built package (strict TypeScript) and runs without throwing.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { transform } from "esbuild";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const outDir = `${root}.tmp/examples/`;
const entryPoints = [
  "src/index.ts",
  "src/events/index.ts",
  "src/server/index.ts",
  "src/server/redis/index.ts",
  "src/dispatch/index.ts",
  "src/dispatch/bullmq/index.ts",
  "src/standard/index.ts",
  "src/opentelemetry/index.ts",
];

interface Documented {
  readonly name: string;
  readonly summary: string;
  readonly examples: string[];
}

/** The exports of an entry point with their JSDoc, read by the TypeScript checker. */
function documentedExports(): Map<string, Documented> {
  const program = ts.createProgram(
    entryPoints.map((entry) => `${root}${entry}`),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const found = new Map<string, Documented>();
  for (const entry of entryPoints) {
    const source = program.getSourceFile(`${root}${entry}`)!;
    const moduleSymbol = checker.getSymbolAtLocation(source)!;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const summary = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      const tags = symbol.getJsDocTags(checker);
      const examples = tags
        .filter((tag) => tag.name === "example")
        .map((tag) => ts.displayPartsToString(tag.text))
        .flatMap((text) => [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!));
      // messaging-events/standard reuses the Zod schemas' names: both are kept, by subpath.
      const subpath = entry.replace(/^src\/|\/?index\.ts$/g, "").replaceAll("/", "-");
      const key = found.has(exported.name) ? `${subpath}-${exported.name}` : exported.name;
      found.set(key, { name: key, summary, examples });
    }
  }
  return found;
}

const documented = documentedExports();
const examples = [...documented.values()]
  .flatMap((item) => item.examples.map((code, index) => ({ name: `${item.name}-${index}`, code })))
  .map(({ name, code }, index) => ({ file: `${String(index).padStart(3, "0")}-${name}.ts`, code }));

beforeAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const { file, code } of examples) writeFileSync(`${outDir}${file}`, `${code}\nexport {};\n`);
});

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

describe("API documentation", () => {
  it.each([...documented.values()].map((item) => [item.name, item] as const))(
    "%s has a summary and an example",
    (_name, item) => {
      expect(item.summary.length, `${item.name} has no summary`).toBeGreaterThan(20);
      expect(item.examples.length, `${item.name} has no @example with a ts code block`).toBeGreaterThan(0);
    },
  );

  it("every example compiles against the built package, strictly", () => {
    const program = ts.createProgram(
      examples.map(({ file }) => `${outDir}${file}`),
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
    );
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file ? `${diagnostic.file.fileName.slice(outDir.length)}: ` : "";
      return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  });

  it("every example runs without throwing", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      for (const { file, code } of examples) {
        const { code: js } = await transform(code, { loader: "ts", format: "esm" });
        const path = `${outDir}${file.replace(/\.ts$/, ".mjs")}`;
        writeFileSync(path, js);
        await expect(import(pathToFileURL(path).href), file).resolves.toBeDefined();
      }
    } finally {
      log.mockRestore();
    }
  });
});
