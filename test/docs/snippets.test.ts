/**
 * Every TypeScript snippet of README.md and docs/*.md compiles, strictly, against the built package,
 * as a user would paste it: the cookbook recipes with their typed payloads, the client, the
 * documents. Names a snippet leaves to the reader (`input`, `request`, `handle`, …) are declared
 * once below with the types a reader would have (`handle` takes a typed `WebhookPayload`, so a
 * webhook recipe must verify into one); everything else must come from the snippet's own imports.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const outDir = `${root}.tmp/doc-snippets/`;

const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** What the snippets take as given: the page around them, in the reader's program. */
const givens = `
declare const input: { value: string };
declare function showError(message: string | undefined): void;
declare const baseUrl: string;
declare const credentials: string;
declare const token: string;
declare const request: Request;
declare const rawBody: string;
declare const headers: Headers;
declare const payload: { type: "s.room.close"; version: 2; content: Record<string, never> };
declare const secret: string;
/** A receiver's own code takes the typed payload: a recipe that hands on \`unknown\` does not compile. */
declare function handle(payload: import("messaging-events/webhooks").WebhookPayload): Promise<void>;
declare function scheduleAt(date: Date): void;
declare function tenantFor(authorization: string | null): string | null;
declare function saveEvent(principal: string, event: import("messaging-events/events").MessagingEvent, key: string | undefined): Promise<string>;
`;

interface Snippet {
  readonly file: string;
  readonly where: string;
  readonly code: string;
}

/** The ```ts blocks of a page, with the line each starts on. */
function snippetsOf(page: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = readFileSync(join(root, page), "utf8").split("\n");
  for (let index = 0; index < lines.length; index++) {
    if (!/^```ts\s*$/.test(lines[index]!)) continue;
    const start = index + 1;
    while (index + 1 < lines.length && !/^```\s*$/.test(lines[index + 1]!)) index++;
    const code = lines.slice(start, index + 1).join("\n");
    const where = `${page}:${start}`;
    snippets.push({ file: `${page.replace(/[/.]/g, "_")}_${start}.ts`, where, code });
    index++;
  }
  return snippets;
}

/**
 * A module for a snippet: its imports at the top; the rest inside an async function, so that a
 * fragment may `await` and `return` as it would inside a handler, unless it exports something
 * itself (a route handler, a worker), in which case it stays a module as written.
 */
function moduleOf(code: string): string {
  if (/^export /m.test(code)) return `${code}\n${givens}`;
  const lines = code.split("\n");
  const imports: string[] = [];
  let index = 0;
  while (index < lines.length && (/^import /.test(lines[index]!) || lines[index]!.trim() === "")) {
    imports.push(lines[index]!);
    index++;
  }
  return `${imports.join("\n")}\n${givens}\nexport async function snippet() {\n${lines.slice(index).join("\n")}\n}\n`;
}

const snippets = pages.flatMap(snippetsOf);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

describe("code snippets of README.md and docs/*.md", () => {
  it("finds them", () => {
    expect(snippets.length).toBeGreaterThan(10);
  });

  it("compile strictly against the built package", () => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    for (const { file, code } of snippets) writeFileSync(`${outDir}${file}`, moduleOf(code));
    const program = ts.createProgram(
      snippets.map(({ file }) => `${outDir}${file}`),
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
        strict: true,
        noUncheckedIndexedAccess: true,
        resolveJsonModule: true,
        noEmit: true,
        skipLibCheck: true,
        // NestJS's parameter decorators (a recipe) are the legacy kind.
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        types: ["node"],
      },
    );
    const byFile = new Map(snippets.map((snippet) => [snippet.file, snippet.where]));
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const file = diagnostic.file?.fileName.slice(outDir.length);
      const where = file === undefined ? "" : `${byFile.get(file) ?? file}: `;
      return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  });
});
