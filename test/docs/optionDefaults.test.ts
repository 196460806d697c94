/**
 * The options tables of the guides cannot drift from the code: each table follows a marker
 * `<!-- options: InterfaceName -->` in docs/*.md, and must list exactly the properties of that
 * interface in src/ (inherited ones included), each with the default its JSDoc `@default` states.
 * Every options interface that a public entry point exports has such a table.
 *
 * A table is `| Option | Default | What it does |`, one row per property, the name in backticks.
 * The rule for a default cell:
 * - a required property shows `(required)`;
 * - an optional property with a `@default` shows that default. Both texts are normalised the same
 *   way before they are compared: backticks dropped; the value ends at the first " (" outside
 *   brackets, braces and quotes (what follows explains it: `86400000 (24 hours)`); `_` between
 *   digits dropped (`30_000` is `30000`); white space collapsed;
 * - an optional property without a `@default` shows `none` (nothing happens, or nothing is sent,
 *   when it is absent), except the few in {@link DEFAULT_IN_CODE_ONLY}, whose default lives in the
 *   code only: their cell is checked against the text written there.
 *
 * The command line's flags are held to the same rule by `<!-- flags: <command> -->` tables
 * (`| Flag | Default | What it does |`, the flag as `--name PLACEHOLDER`): exactly the command's
 * flags, each with the default its `--help` line states (`human (default) or json` states `human`;
 * `… (default: 1048576)` states `1048576`, up to a `;` or `)`), `off` for a switch, `none` otherwise,
 * except the few in {@link FLAG_DEFAULT_IN_CODE_ONLY}.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { FlagSpec } from "../../src/cli/parseArgs.js";
import { commands } from "../../src/cli/runCli.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The public entry points: every options interface they export needs a table. */
const entryPoints = [
  "src/index.ts",
  "src/events/index.ts",
  "src/webhooks/index.ts",
  "src/jsonapi/index.ts",
  "src/idempotency/index.ts",
  "src/client/index.ts",
  "src/server/index.ts",
  "src/server/redis/index.ts",
  "src/dispatch/index.ts",
  "src/dispatch/bullmq/index.ts",
  "src/opentelemetry/index.ts",
];

/**
 * Optional properties whose default is applied in code but not stated by a `@default` in their
 * JSDoc, with the cell the guides show for them. Keep this list short: a `@default` in src/ is the
 * better fix.
 */
const DEFAULT_IN_CODE_ONLY: Readonly<Record<string, string>> = {
  // createWebhookReceiver treats a missing `on` as no handlers.
  "WebhookReceiverOptions.on": "{}",
};

/** Flags whose `--help` line states no default although the command applies one, with the guide's cell. */
const FLAG_DEFAULT_IN_CODE_ONLY: Readonly<Record<string, string>> = {
  // serve delivers with the dispatcher's own retry delays unless told otherwise.
  "serve --webhook-retry-delays-ms": "the dispatcher's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h",
};

interface TableRow {
  readonly name: string;
  readonly defaultCell: string;
  readonly line: number;
}

interface OptionsTable {
  readonly page: string;
  readonly line: number;
  readonly interfaceName: string;
  readonly rows: TableRow[];
}

/** The cells of a table row: split on `|` outside code spans, escaped pipes kept. */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let current = "";
  let inCode = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (char === "\\" && line[index + 1] === "|") {
      current += "|";
      index++;
    } else if (char === "`") {
      inCode = !inCode;
      current += char;
    } else if (char === "|" && !inCode) {
      cells.push(current.trim());
      current = "";
    } else current += char;
  }
  cells.push(current.trim());
  return cells.slice(1, -1);
}

/**
 * Every table of a page under a marker of `kind` (`options` or `flags`): the marker, then (after
 * blank lines) the table, whose first column names each row in backticks, read by `name`.
 */
function tablesOf(page: string, kind: "options" | "flags", first: string, name: RegExp): OptionsTable[] {
  const lines = readFileSync(join(root, page), "utf8").split("\n");
  const tables: OptionsTable[] = [];
  lines.forEach((text, index) => {
    const marker = new RegExp(`^<!-- ${kind}: ([\\w-]+) -->\\s*$`).exec(text);
    if (!marker) return;
    let at = index + 1;
    while (at < lines.length && lines[at]!.trim() === "") at++;
    const header = cellsOf(lines[at] ?? "");
    expect(header, `${page}:${at + 1}: the table under <!-- ${kind}: ${marker[1]} -->`).toEqual([
      first,
      "Default",
      "What it does",
    ]);
    const rows: TableRow[] = [];
    for (at += 2; at < lines.length && lines[at]!.startsWith("|"); at++) {
      const [cell, defaultCell] = cellsOf(lines[at]!);
      const named = name.exec(cell ?? "");
      expect(named, `${page}:${at + 1}: a name in backticks`).not.toBeNull();
      rows.push({ name: named![1]!, defaultCell: defaultCell ?? "", line: at + 1 });
    }
    tables.push({ page, line: index + 1, interfaceName: marker[1]!, rows });
  });
  return tables;
}

/** A default as the rule above compares it. */
function normalizeDefault(text: string): string {
  const plain = text.replace(/`/g, "").replace(/\s+/g, " ").trim();
  let depth = 0;
  let quote: string | undefined;
  let end = plain.length;
  for (let index = 0; index < plain.length; index++) {
    const char = plain[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if ("([{".includes(char)) {
      if (char === "(" && depth === 0 && index > 0 && plain[index - 1] === " ") {
        end = index - 1;
        break;
      }
      depth++;
    } else if (")]}".includes(char)) depth--;
  }
  return plain
    .slice(0, end)
    .replace(/(?<=\d)_(?=\d)/g, "")
    .trim();
}

interface OptionProperty {
  readonly name: string;
  readonly optional: boolean;
  readonly jsdocDefault: string | undefined;
}

function sourceFiles(): string[] {
  return readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /(?<!\.test|\.test-d)\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const program = ts.createProgram(sourceFiles(), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
const checker = program.getTypeChecker();

/** The interfaces declared under src/, by name; a name declared twice is a test failure. */
const interfaces = new Map<string, ts.InterfaceDeclaration[]>();
for (const source of program.getSourceFiles()) {
  if (relative(root, source.fileName).startsWith("..") || !source.fileName.includes("/src/")) continue;
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    interfaces.set(statement.name.text, [...(interfaces.get(statement.name.text) ?? []), statement]);
  }
}

/** The properties of an interface of src/, inherited ones included, with their `@default`. */
function propertiesOf(interfaceName: string): OptionProperty[] {
  const declarations = interfaces.get(interfaceName) ?? [];
  expect(declarations.length, `one interface ${interfaceName} in src/`).toBe(1);
  const symbol = checker.getSymbolAtLocation(declarations[0]!.name)!;
  return checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map((property) => {
    const tag = property.getJsDocTags(checker).find((candidate) => candidate.name === "default");
    return {
      name: property.name,
      optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
      jsdocDefault: tag === undefined ? undefined : ts.displayPartsToString(tag.text).trim(),
    };
  });
}

/** The cell a property's row must show, normalised. */
function expectedCell(interfaceName: string, property: OptionProperty): string {
  if (!property.optional) return "(required)";
  if (property.jsdocDefault !== undefined) return normalizeDefault(property.jsdocDefault);
  return normalizeDefault(DEFAULT_IN_CODE_ONLY[`${interfaceName}.${property.name}`] ?? "none");
}

const pages = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);
const tables = pages.flatMap((page) => tablesOf(page, "options", "Option", /^`(\w+)`$/));
const flagTables = pages.flatMap((page) => tablesOf(page, "flags", "Flag", /^`--([\w-]+)(?: [^`]*)?`$/));

/** The default a flag's `--help` line states, by the rule of this file. */
function statedFlagDefault(command: string, flag: FlagSpec): string {
  const allowed = FLAG_DEFAULT_IN_CODE_ONLY[`${command} --${flag.name}`];
  if (allowed !== undefined) return normalizeDefault(allowed);
  if (flag.type === "boolean") return "off";
  const stated =
    /^(\S+) \(default\b/.exec(flag.description)?.[1] ?? /\(default: ([^;)]*)/.exec(flag.description)?.[1];
  return stated === undefined ? "none" : normalizeDefault(stated);
}

/** The options interfaces the public entry points export. */
function exportedOptionsInterfaces(): string[] {
  const names = new Set<string>();
  for (const entry of entryPoints) {
    const source = program.getSourceFile(join(root, entry));
    expect(source, entry).toBeDefined();
    for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source!)!)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (symbol.flags & ts.SymbolFlags.Interface && /Options$/.test(symbol.name)) names.add(symbol.name);
    }
  }
  return [...names].sort();
}

describe("the options tables of the guides", () => {
  it("normalises defaults by the rule of this file", () => {
    expect(normalizeDefault("86400000 (24 hours)")).toBe("86400000");
    expect(normalizeDefault("`30_000` (30 s)")).toBe("30000");
    expect(normalizeDefault("createMemoryIdempotencyStore() (closed with the handler)")).toBe(
      "createMemoryIdempotencyStore()",
    );
    expect(normalizeDefault("[5_000, 300_000] (5 s, 5 min)")).toBe("[5000, 300000]");
    expect(normalizeDefault('{ eventType: "eventType", content: "content" }')).toBe(
      '{ eventType: "eventType", content: "content" }',
    );
    expect(normalizeDefault('"a (b)" (c)')).toBe('"a (b)"');
  });

  it("exist for every options interface a public entry point exports", () => {
    const documented = new Set(tables.map((table) => table.interfaceName));
    const exported = exportedOptionsInterfaces();
    expect(exported).toEqual(expect.arrayContaining(["EventsHandlerOptions", "WebhookDispatcherOptions"]));
    expect(exported.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("are each given once", () => {
    const names = tables.map((table) => table.interfaceName);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it.each(tables.map((table) => [`${table.page}:${table.line} ${table.interfaceName}`, table] as const))(
    "%s lists every option with its default",
    (_name, table) => {
      const properties = propertiesOf(table.interfaceName);
      expect(
        table.rows.map((row) => row.name).sort(),
        `${table.page}:${table.line}: the options of ${table.interfaceName}`,
      ).toEqual(properties.map((property) => property.name).sort());
      const byName = new Map(properties.map((property) => [property.name, property]));
      const wrong = table.rows
        .filter(
          (row) =>
            normalizeDefault(row.defaultCell) !== expectedCell(table.interfaceName, byName.get(row.name)!),
        )
        .map(
          (row) =>
            `${table.page}:${row.line}: ${row.name} shows ${JSON.stringify(row.defaultCell)}, expected ${JSON.stringify(expectedCell(table.interfaceName, byName.get(row.name)!))}`,
        );
      expect(wrong).toEqual([]);
    },
  );

  it("allow-list only defaults that src/ does not state", () => {
    const stale = Object.keys(DEFAULT_IN_CODE_ONLY).filter((key) => {
      const [interfaceName, name] = key.split(".") as [string, string];
      const property = propertiesOf(interfaceName).find((candidate) => candidate.name === name);
      return property === undefined || !property.optional || property.jsdocDefault !== undefined;
    });
    expect(stale, "remove these from DEFAULT_IN_CODE_ONLY").toEqual([]);
  });
});

describe("the flag tables of the command-line guide", () => {
  it("exist for every command, once", () => {
    expect(flagTables.map((table) => table.interfaceName).sort()).toEqual(
      commands.map((command) => command.name).sort(),
    );
  });

  it.each(flagTables.map((table) => [`${table.page}:${table.line} ${table.interfaceName}`, table] as const))(
    "%s lists every flag with the default its help states",
    (_name, table) => {
      const command = commands.find((candidate) => candidate.name === table.interfaceName)!;
      expect(table.rows.map((row) => row.name).sort()).toEqual(command.flags.map((flag) => flag.name).sort());
      const wrong = table.rows
        .map((row) => [row, command.flags.find((flag) => flag.name === row.name)!] as const)
        .filter(([row, flag]) => normalizeDefault(row.defaultCell) !== statedFlagDefault(command.name, flag))
        .map(
          ([row, flag]) =>
            `${table.page}:${row.line}: --${row.name} shows ${JSON.stringify(row.defaultCell)}, its help states ${JSON.stringify(statedFlagDefault(command.name, flag))}`,
        );
      expect(wrong).toEqual([]);
    },
  );

  it("allow-list only flags whose help states no default", () => {
    const stale = Object.keys(FLAG_DEFAULT_IN_CODE_ONLY).filter((key) => {
      const [name, flagName] = key.split(" --") as [string, string];
      const flag = commands
        .find((command) => command.name === name)
        ?.flags.find((candidate) => candidate.name === flagName);
      return flag === undefined || /\(default/.test(flag.description);
    });
    expect(stale, "remove these from FLAG_DEFAULT_IN_CODE_ONLY").toEqual([]);
  });
});
