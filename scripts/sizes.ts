/**
 * What each import of the built package costs a browser bundle: esbuild bundles a one-line entry
 * that imports it from `dist/` (through the package's own exports), minified, and gzip -9 compresses
 * the output. The bundle-size table of docs/performance.md is generated from these measurements,
 * between the markers below, and `test/bundle/readmeSizes.test.ts` fails when it differs from a
 * fresh measure.
 *
 * Run after `npm run build`: `npx tsx scripts/sizes.ts` rewrites the table in docs/performance.md;
 * `npx tsx scripts/sizes.ts --check` only compares, and exits 1 when the table is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { eventTypes } from "../src/events/eventTypes.js";
import { bundle } from "../test/support/bundle.js";

export const SIZES_START = "<!-- sizes:start -->";
export const SIZES_END = "<!-- sizes:end -->";

/** One row of the table: what a user imports, and how the row names it (markdown). */
export interface MeasuredImport {
  /** The first cell of the row. */
  readonly label: string;
  /** The subpath imported from, `messaging-events` or `messaging-events/<sub>`. */
  readonly from: string;
  /** The names imported; empty for `import * as`. */
  readonly names: readonly string[];
}

/** The 32 per-type guards, `isMessageTextContent` for `s.message.text`. */
const guardNames = eventTypes.map(
  (type) =>
    `is${type
      .slice(2)
      .split(".")
      .map((part) => `${part[0]!.toUpperCase()}${part.slice(1)}`)
      .join("")}Content`,
);

/** Every import the table lists, in its order. */
export const measuredImports: readonly MeasuredImport[] = [
  {
    label: "`messageTextContent`: one content schema",
    from: "messaging-events/events",
    names: ["messageTextContent"],
  },
  {
    label: "`safeParseContent` + `messageTextContent`: one schema with the library's messages",
    from: "messaging-events/events",
    names: ["safeParseContent", "messageTextContent"],
  },
  {
    label: "`safeParseMessageTextContent`: one type, compiled, the library's messages",
    from: "messaging-events/events",
    names: ["safeParseMessageTextContent"],
  },
  {
    label: "`messageActionContent`: the largest content schema",
    from: "messaging-events/events",
    names: ["messageActionContent"],
  },
  {
    label: "`safeParseEventContent`, `safeParseEvent`: all 32 types, compiled, the library's messages",
    from: "messaging-events/events",
    names: ["safeParseEventContent", "safeParseEvent"],
  },
  {
    label: "`isMessageTextContent`: one type's guard, the verdict alone",
    from: "messaging-events/events",
    names: ["isMessageTextContent"],
  },
  {
    label: "the 32 `is…Content` guards, `isEventContent`, `isEvent`: all 32 types, the verdict alone",
    from: "messaging-events/events",
    names: [...guardNames, "isEventContent", "isEvent"],
  },
  {
    label:
      "`messageTextContent` from `messaging-events/standard`: one type's Standard Schema object, with its JSON Schema",
    from: "messaging-events/standard",
    names: ["messageTextContent"],
  },
  {
    label:
      '`import * as all from "messaging-events/standard"`: the 34 Standard Schema objects, with their JSON Schema',
    from: "messaging-events/standard",
    names: [],
  },
  {
    label: "`eventSchema`: all 32 schemas as one union",
    from: "messaging-events/events",
    names: ["eventSchema"],
  },
  {
    label: "`eventTypes`, `isEventType`",
    from: "messaging-events/events",
    names: ["eventTypes", "isEventType"],
  },
  {
    label: "`verifyWebhookSignature`: the signature only",
    from: "messaging-events/webhooks",
    names: ["verifyWebhookSignature"],
  },
  {
    label: "`verifyWebhook`: the signature, then the typed payload",
    from: "messaging-events/webhooks",
    names: ["verifyWebhook"],
  },
  {
    label: "`createWebhookReceiver`: verify, claim, typed handlers, the memory store",
    from: "messaging-events/webhooks",
    names: ["createWebhookReceiver"],
  },
  { label: "`signWebhook`", from: "messaging-events/webhooks", names: ["signWebhook"] },
  {
    label: "`isJsonApiMediaType`, `acceptsJsonApi`",
    from: "messaging-events/jsonapi",
    names: ["isJsonApiMediaType", "acceptsJsonApi"],
  },
  { label: "`toJsonApiErrors`", from: "messaging-events/jsonapi", names: ["toJsonApiErrors"] },
  { label: "`readIdempotencyKey`", from: "messaging-events/idempotency", names: ["readIdempotencyKey"] },
  {
    label: "`safeParseEventDocument`: request documents, all 32 types, compiled",
    from: "messaging-events/jsonapi",
    names: ["safeParseEventDocument"],
  },
  {
    label: "`createEventsHandler`: the server's handler, all 32 types, compiled",
    from: "messaging-events/server",
    names: ["createEventsHandler"],
  },
  {
    label: "`createWebhookDispatcher`: the dispatcher, the seven webhook schemas",
    from: "messaging-events/dispatch",
    names: ["createWebhookDispatcher"],
  },
  {
    label: "`createEventsClient`: the client, all 32 types, compiled",
    from: "messaging-events/client",
    names: ["createEventsClient"],
  },
  { label: 'everything: `import * as all from "messaging-events"`', from: "messaging-events", names: [] },
];

/** One measured import. */
export interface SizeRow {
  readonly label: string;
  /** Minified bytes. */
  readonly minified: number;
  /** Minified, then gzip -9, bytes. */
  readonly gzipped: number;
  /** Whether the bundle holds Zod. */
  readonly zod: boolean;
}

/** The entry module that imports one row's names and keeps them alive. */
export function entryOf({ from, names }: MeasuredImport): string {
  return names.length === 0
    ? `import * as all from "${from}"; console.log(all);`
    : `import { ${names.join(", ")} } from "${from}"; console.log(${names.join(", ")});`;
}

/** Bundles and measures every row, from the built package. */
export async function measureSizes(imports: readonly MeasuredImport[] = measuredImports): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  for (const item of imports) {
    let report: Awaited<ReturnType<typeof bundle>>;
    try {
      report = await bundle(entryOf(item));
    } catch (error) {
      throw new Error(
        `could not bundle ${entryOf(item)} from dist/: is dist/ older than src/? Run npm run build first`,
        { cause: error },
      );
    }
    rows.push({
      label: item.label,
      minified: report.minified,
      gzipped: report.gzipped,
      zod: report.code.includes("_zod"),
    });
  }
  return rows;
}

/** Bytes as KB (1,024 bytes) with two decimals: `5869` -> `5.73 KB`. */
export const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;

/** The markdown table of the measured rows. */
export function sizesTable(rows: readonly SizeRow[]): string {
  return [
    "| Import | min+gzip | Zod |",
    "|---|--:|---|",
    ...rows.map((row) => `| ${row.label} | ${kilobytes(row.gzipped)} | ${row.zod ? "yes" : "no"} |`),
  ].join("\n");
}

/** The page that holds the table, from the package root. */
export const SIZES_PAGE = "docs/performance.md";

/** The table currently between the markers of a page, or `undefined` when the markers are missing. */
export function writtenSizesTable(page: string): string | undefined {
  const start = page.indexOf(SIZES_START);
  const end = page.indexOf(SIZES_END);
  if (start === -1 || end < start) return undefined;
  return page.slice(start + SIZES_START.length, end).trim();
}

/** The page with `table` between the markers. Throws when the markers are missing. */
export function withSizesTable(page: string, table: string): string {
  const start = page.indexOf(SIZES_START);
  const end = page.indexOf(SIZES_END);
  if (start === -1 || end < start)
    throw new Error(`${SIZES_PAGE} has no ${SIZES_START} … ${SIZES_END} markers`);
  return `${page.slice(0, start + SIZES_START.length)}\n${table}\n${page.slice(end)}`;
}

const pagePath = new URL(`../${SIZES_PAGE}`, import.meta.url);

async function main(): Promise<void> {
  const table = sizesTable(await measureSizes());
  const page = readFileSync(pagePath, "utf8");
  if (process.argv.includes("--check")) {
    const same = writtenSizesTable(page) === table;
    console.log(
      same
        ? `${SIZES_PAGE}: the bundle sizes are current`
        : `${SIZES_PAGE}: the bundle sizes are stale; now:\n${table}`,
    );
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(pagePath, withSizesTable(page, table));
  console.log(table);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
