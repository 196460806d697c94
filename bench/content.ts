/**
 * Content validation throughput, like with like, on a five-type mix and an all-types mix, valid and
 * near-miss invalid, in one process with interleaved rounds: the library's guard (`isEventContent`,
 * a verdict alone) against the peers' check-only calls (TypeBox `.Check`, typia `equals`, arktype
 * `.allows`, Ajv); its `safeParseEventContent` (and `safeParseEvent` for whole events), which
 * returns a copy and messages, against zod/mini and the peers' calls that return data and messages
 * where they have one (typia `validateEquals`, valibot, arktype), with Ajv and TypeBox as
 * baselines. Before any timing, every peer is proven to agree with the library on every input. On
 * invalid content every contender of data and messages reads its first error's message, the work
 * a server does before answering 422.
 *
 * Run: `npx tsx bench/content.ts` (imports from `src/`); `--write-readme` (or
 * `BENCH_WRITE_README=1`) then rewrites the performance section of docs/performance.md with the
 * figures (the flag kept its name from when that section was in the README).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { pathToFileURL } from "node:url";
import {
  eventContentSchemas,
  isEventContent,
  safeParseEvent,
  safeParseEventContent,
} from "../src/events/index.js";
import { compileShippedSchemas } from "../test/support/ajv.js";
import { type Contender, runCase } from "./harness.js";
import { proveAgreement } from "./peers/agreement.js";
import { buildMixes, hotTypes, type Item, type Mix } from "./peers/mixes.js";
import { createPeers } from "./peers/peers.js";
import { measurePeerSizes, type SizeRow } from "./peers/sizes.js";

/** One contender's figures on one mix. */
export interface ContenderRow {
  readonly name: string;
  readonly call: string;
  readonly opsPerSecond: number;
  /** Its rate over Ajv's with `allErrors: false` (the baseline) in the same case. */
  readonly vsAjv: number;
  /** Its rate over TypeBox's in the same case. */
  readonly vsTypebox: number;
}

/** Content validation by type on one mix. */
export interface ContentCase {
  readonly mix: Mix;
  readonly rows: readonly ContenderRow[];
}

/** Verdicts alone on one mix: the library's guard and the peers' check-only calls. */
export interface GuardCase {
  readonly mix: Mix;
  readonly rows: readonly { name: string; call: string; opsPerSecond: number; vsTypebox: number }[];
}

/** Whole events `{ type, content }` on one mix, against the library's content-only rate. */
export interface EventsCase {
  readonly mix: Mix;
  readonly rows: readonly { name: string; opsPerSecond: number; vsContent: number }[];
}

/** A goal the library's figures are held to. */
export interface Target {
  readonly label: string;
  readonly ratio: number;
  readonly goal: number;
  readonly pass: boolean;
}

/** Everything one run measured. */
export interface ContentBenchReport {
  readonly date: string;
  readonly node: string;
  readonly cpu: string;
  readonly checks: number;
  readonly content: readonly ContentCase[];
  readonly guards: readonly GuardCase[];
  readonly events: readonly EventsCase[];
  readonly targets: readonly Target[];
  readonly sizes: readonly SizeRow[];
}

const LIBRARY = "safeParseEventContent (library)";
const GUARD = "isEventContent (library)";
const ZOD = "zod/mini schema.safeParse";
const EVENT = "safeParseEvent (library)";
const EVENT_AJV = "Ajv on event.json, allErrors: false";
const CONTENT_ONLY = "safeParseEventContent, content only";

/** Runs `check` over every item; returns a number the work depends on, so it cannot be skipped. */
const over =
  <T>(items: readonly T[], check: (item: T) => number) =>
  (): number => {
    let sum = 0;
    for (const item of items) sum += check(item);
    return sum;
  };
const bit = (value: boolean): number => (value ? 1 : 0);

/** Runs the whole content benchmark: mixes, agreement proof, timed cases, bundle sizes. */
export async function runContentBench(): Promise<ContentBenchReport> {
  const mixes = buildMixes();
  const peers = createPeers();
  const ajvEvent = compileShippedSchemas({ allErrors: false }).event;
  const checks = proveAgreement(mixes, peers.all, { name: "Ajv on event.json", check: (e) => ajvEvent(e) });
  // The baseline is Ajv with allErrors: false; the others are compared with it and with TypeBox.
  const others = peers.all.filter((peer) => peer !== peers.ajv);

  const content: ContentCase[] = [];
  const guards: GuardCase[] = [];
  const events: EventsCase[] = [];
  for (const mix of mixes) {
    const items = mix.items;
    const message = (text: string | undefined): number => text?.length ?? 0;
    const peerContender = (peer: (typeof peers.all)[number]): Contender => ({
      name: peer.name,
      run: mix.valid
        ? over(items, (item) => bit(peer.validate[item.type](item.content)))
        : over(items, (item) => message(peer.firstError[item.type](item.content))),
    });
    // Verdicts alone, on every mix: the library's guard and the peers' check-only calls.
    const checkOnly = (peer: (typeof peers.all)[number]): Contender => ({
      name: peer.name,
      run: over(items, (item) => bit(peer.check[item.type](item.content))),
    });
    const peerNamed = (name: string) => others.find((peer) => peer.name === name)!;
    const verdicts = runCase(`${mix.name}, verdicts`, items.length, [
      { name: GUARD, run: over(items, (item) => bit(isEventContent(item.type, item.content))) },
      checkOnly(peerNamed("typia (generated)")),
      checkOnly(peers.ajv),
      checkOnly(peerNamed("arktype")),
      checkOnly(peers.typebox),
    ]);
    guards.push({
      mix,
      rows: verdicts.results.map((row) => ({
        name: row.name,
        call: row.name === GUARD ? "(type, v)" : peers.all.find((peer) => peer.name === row.name)!.checkCall,
        opsPerSecond: row.opsPerSecond,
        vsTypebox: row.ratio,
      })),
    });
    const library: Contender = {
      name: LIBRARY,
      run: mix.valid
        ? over(items, (item) => bit(safeParseEventContent(item.type, item.content).success))
        : over(items, (item) => {
            const result = safeParseEventContent(item.type, item.content);
            return result.success ? 0 : result.error.issues[0]!.message.length;
          }),
    };
    const zod: Contender = {
      name: ZOD,
      run: mix.valid
        ? over(items, (item) => bit(eventContentSchemas[item.type].safeParse(item.content).success))
        : over(items, (item) => {
            const result = eventContentSchemas[item.type].safeParse(item.content);
            return result.success ? 0 : result.error.issues[0]!.message.length;
          }),
    };
    // On a garbage-collected heap, a contender that allocates a lot leaves garbage that is
    // collected during the next one's slice: each round runs the contenders in a new random order,
    // so that no one always follows the same one. valibot and arktype allocate so much that they
    // run in a case of their own, compared with the main case's rates (same run).
    const byName = (name: string) => peerContender(others.find((peer) => peer.name === name)!);
    const main = runCase(mix.name, items.length, [
      zod,
      library,
      byName("typia (generated)"),
      byName("Ajv, allErrors: true"),
      byName("Ajv standalone code"),
      peerContender(peers.typebox),
      peerContender(peers.ajv),
    ]);
    const slow = runCase(mix.name, items.length, [byName("arktype"), byName("valibot")]);
    const results = [...main.results, ...slow.results];
    const rateOf = (name: string): number => results.find((row) => row.name === name)!.opsPerSecond;
    const ajvRate = rateOf(peers.ajv.name);
    const typeboxRate = rateOf(peers.typebox.name);
    const order = [LIBRARY, ZOD, ...others.map((peer) => peer.name), peers.ajv.name];
    const callOf = (name: string): string => {
      if (name === LIBRARY) return mix.valid ? "(type, v).success" : "(type, v).error.issues[0].message";
      if (name === ZOD) return mix.valid ? ".success" : ".error.issues[0].message";
      const peer = peers.all.find((candidate) => candidate.name === name)!;
      return mix.valid ? peer.validCall : peer.invalidCall;
    };
    content.push({
      mix,
      rows: order.map((name) => ({
        name,
        call: callOf(name),
        opsPerSecond: rateOf(name),
        vsAjv: rateOf(name) / ajvRate,
        vsTypebox: rateOf(name) / typeboxRate,
      })),
    });

    const asEvents = items.map((item: Item) => ({ type: item.type, content: item.content }));
    const timedEvents = runCase(`${mix.name}, whole events`, asEvents.length, [
      {
        name: EVENT,
        run: mix.valid
          ? over(asEvents, (event) => bit(safeParseEvent(event).success))
          : over(asEvents, (event) => {
              const result = safeParseEvent(event);
              return result.success ? 0 : result.error.issues[0]!.message.length;
            }),
      },
      {
        name: EVENT_AJV,
        run: mix.valid
          ? over(asEvents, (event) => bit(ajvEvent(event)))
          : over(asEvents, (event) => (ajvEvent(event) ? 0 : message(ajvEvent.errors![0]!.message))),
      },
      library,
    ]);
    events.push({
      mix,
      rows: timedEvents.results.map((row) => ({
        name: row.name === LIBRARY ? CONTENT_ONLY : row.name,
        opsPerSecond: row.opsPerSecond,
        vsContent: row.ratio,
      })),
    });
  }

  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.versions.node,
    cpu: cpus()[0]?.model.trim() ?? "unknown CPU",
    checks,
    content,
    guards,
    events,
    targets: targetsOf(content, guards, events),
    sizes: await measurePeerSizes(),
  };
}

function targetsOf(
  content: readonly ContentCase[],
  guards: readonly GuardCase[],
  events: readonly EventsCase[],
): Target[] {
  const targets: Target[] = [];
  const add = (label: string, ratio: number, goal: number) =>
    targets.push({ label, ratio, goal, pass: ratio >= goal });
  for (const { mix, rows } of guards) {
    add(
      `${mix.name}: isEventContent vs TypeBox .Check`,
      rows.find((row) => row.name === GUARD)!.vsTypebox,
      1,
    );
  }
  for (const { mix, rows } of content) {
    const library = rows.find((row) => row.name === LIBRARY)!;
    if (mix.valid) {
      const typia = rows.find((row) => row.name === "typia (generated)")!;
      add(
        `${mix.name}: safeParseEventContent vs typia validateEquals`,
        library.opsPerSecond / typia.opsPerSecond,
        1.3,
      );
      add(`${mix.name}: safeParseEventContent vs Ajv allErrors: false`, library.vsAjv, 2);
    } else {
      add(`${mix.name}: safeParseEventContent vs Ajv allErrors: false`, library.vsAjv, 0.35);
      add(`${mix.name}: safeParseEventContent vs TypeBox .Check + .Errors().First()`, library.vsTypebox, 2);
    }
  }
  for (const { mix, rows } of events) {
    add(
      `${mix.name}: safeParseEvent vs content only`,
      rows.find((row) => row.name === EVENT)!.vsContent,
      0.8,
    );
  }
  return targets;
}

const times = (ratio: number): string => `${ratio.toFixed(2)}x`;
const rate = (opsPerSecond: number): string => Math.round(opsPerSecond).toLocaleString("en-US");
const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;

/** Prints the report to the console. */
export function printContentBench(report: ContentBenchReport): void {
  console.log(
    `\nContent validation on Node ${report.node} (${report.cpu}): every peer agreed with the library on every input (${report.checks.toLocaleString("en-US")} checks)`,
  );
  for (const { mix, rows } of report.content) {
    console.log(
      `\n${mix.name}: content by type (${mix.items.length} items over ${mix.types} types per pass)`,
    );
    const width = Math.max(...rows.map((row) => row.name.length));
    const callWidth = Math.max(...rows.map((row) => row.call.length));
    console.log(
      `  ${"".padEnd(width)}  ${"call".padEnd(callWidth)}  ${"validations/s".padStart(13)}  ${"vs Ajv".padStart(7)}  ${"vs TypeBox".padStart(10)}`,
    );
    for (const row of rows) {
      console.log(
        `  ${row.name.padEnd(width)}  ${row.call.padEnd(callWidth)}  ${rate(row.opsPerSecond).padStart(13)}  ${times(row.vsAjv).padStart(7)}  ${times(row.vsTypebox).padStart(10)}`,
      );
    }
  }
  for (const { mix, rows } of report.guards) {
    console.log(`\n${mix.name}: verdicts alone (${mix.items.length} items per pass)`);
    const width = Math.max(...rows.map((row) => row.name.length));
    for (const row of rows) {
      console.log(
        `  ${row.name.padEnd(width)}  ${row.call.padEnd(18)}  ${rate(row.opsPerSecond).padStart(13)} validations/s   ${times(row.vsTypebox)} TypeBox .Check`,
      );
    }
  }
  for (const { mix, rows } of report.events) {
    console.log(`\n${mix.name}: whole events { type, content } (${mix.items.length} items per pass)`);
    const width = Math.max(...rows.map((row) => row.name.length));
    for (const row of rows) {
      console.log(
        `  ${row.name.padEnd(width)}  ${rate(row.opsPerSecond).padStart(13)} validations/s   ${times(row.vsContent)} content only`,
      );
    }
  }
  console.log("\nBundle sizes (esbuild, minified, gzip -9)");
  const width = Math.max(...report.sizes.map((row) => row.label.length));
  for (const row of report.sizes)
    console.log(`  ${row.label.padEnd(width)}  ${kilobytes(row.gzipped).padStart(9)}`);
  console.log("\nTargets");
  for (const target of report.targets) {
    console.log(
      `  ${target.pass ? "met    " : "not yet"}  ${target.label}: ${times(target.ratio)} (goal >= ${times(target.goal)})`,
    );
  }
}

/** The performance section of docs/performance.md (between the markers) for a report. */
export function performanceSection(report: ContentBenchReport): string {
  const names = report.content[0]!.rows.map((row) => row.name);
  const mixNames = report.content.map(({ mix }) => mix.name);
  const cell = (mixIndex: number, name: string): string => {
    const row = report.content[mixIndex]!.rows.find((candidate) => candidate.name === name)!;
    return `${times(row.vsAjv)} / ${times(row.vsTypebox)}`;
  };
  const calls = (name: string): string => {
    const valid = report.content.find(({ mix }) => mix.valid)!.rows.find((row) => row.name === name)!.call;
    const invalid = report.content.find(({ mix }) => !mix.valid)!.rows.find((row) => row.name === name)!.call;
    return `\`${valid}\`; invalid: \`${invalid}\``;
  };
  const baseline = report.content.map(({ rows }) => rate(rows[rows.length - 1]!.opsPerSecond));
  const mixLine = report.content
    .map(({ mix }) => `${mix.name}: ${mix.items.length} items over ${mix.types} types`)
    .join("; ");
  return [
    `Measured ${report.date} on Node ${report.node} (${report.cpu}) by \`npx tsx bench/content.ts --write-readme\`. Mixes (fixed seed, shuffled): ${mixLine}; the five types are ${hotTypes.map((type) => `\`${type}\``).join(", ")}. Each item is what \`JSON.parse\` makes of it, as a server receives it. Invalid items are near misses with exactly one issue. Each peer was first proven to agree with the library on every input, by each call measured. Each case starts after a full garbage collection; contenders alternate in slices of 40 ms of CPU time, in a new random order each round, 31 rounds, and each figure is the median of its rounds. The machine is shared: the same ratio moves by a tenth or more between runs.`,
    "",
    "Verdicts alone: the library's guard against the peers' check-only calls, valid and invalid items alike. Each cell: rate ÷ TypeBox `.Check`, same run; above 1 is faster.",
    "",
    `| Contender | call | ${mixNames.join(" | ")} |`,
    `|---|---|${mixNames.map(() => "--:").join("|")}|`,
    ...report.guards[0]!.rows.map(
      ({ name, call }) =>
        `| ${name} | \`${call}\` | ${report.guards.map(({ rows }) => times(rows.find((row) => row.name === name)!.vsTypebox)).join(" | ")} |`,
    ),
    "",
    "Data and messages: the library's `safeParseEventContent`, which returns a copy of valid content and the issues of invalid content, against zod/mini and the peers' calls that return data or messages (Ajv and TypeBox return neither on valid content: they are the baselines). On invalid content every contender reads its first error's message. Each cell: rate ÷ Ajv (`allErrors: false`) / rate ÷ TypeBox, same run; above 1 is faster.",
    "",
    `| Contender | call (valid; invalid) | ${mixNames.join(" | ")} |`,
    `|---|---|${mixNames.map(() => "--:").join("|")}|`,
    ...names.map(
      (name) =>
        `| ${name} | ${calls(name)} | ${report.content.map((_, index) => cell(index, name)).join(" | ")} |`,
    ),
    `| Ajv \`allErrors: false\`, validations/s | | ${baseline.join(" | ")} |`,
    "",
    "Whole events `{ type, content }`, rate ÷ the library's content-only rate on the same mix:",
    "",
    `| Mix | ${report.events[0]!.rows.filter((row) => row.name !== CONTENT_ONLY)
      .map((row) => row.name)
      .join(" | ")} |`,
    `|---|${report.events[0]!.rows.filter((row) => row.name !== CONTENT_ONLY)
      .map(() => "--:")
      .join("|")}|`,
    ...report.events.map(
      ({ mix, rows }) =>
        `| ${mix.name} | ${rows
          .filter((row) => row.name !== CONTENT_ONLY)
          .map((row) => times(row.vsContent))
          .join(" | ")} |`,
    ),
    "",
    "| Target | measured | goal | |",
    "|---|--:|--:|---|",
    ...report.targets.map(
      (target) =>
        `| ${target.label} | ${times(target.ratio)} | ${times(target.goal)} | ${target.pass ? "met" : "not yet"} |`,
    ),
    "",
    "Bundle sizes (esbuild, minified, gzip -9):",
    "",
    "| Validator | min+gzip |",
    "|---|--:|",
    ...report.sizes.map((row) => `| ${row.label} | ${kilobytes(row.gzipped)} |`),
  ].join("\n");
}

export const BENCH_START = "<!-- bench:start -->";
export const BENCH_END = "<!-- bench:end -->";
/** The page the section is written to (the bundle-size table's page, see scripts/sizes.ts). */
const PAGE = "docs/performance.md";
const PAGE_URL = new URL(`../${PAGE}`, import.meta.url);

/**
 * The page with `section` between the markers. Without markers yet, a "Performance" section
 * holding them goes right after the bundle-size section (at the next `## ` heading, or at the end).
 */
export function withPerformanceSection(page: string, section: string): string {
  const start = page.indexOf(BENCH_START);
  const end = page.indexOf(BENCH_END);
  if (start !== -1 && end > start) {
    return `${page.slice(0, start + BENCH_START.length)}\n${section}\n${page.slice(end)}`;
  }
  const sizes = page.indexOf("## Bundle size");
  if (sizes === -1) throw new Error(`${PAGE} has no bundle-size section`);
  const following = page.indexOf("\n## ", sizes + 1);
  const block = [
    "## Performance",
    "",
    "Content validation against the usual validators, measured by the benchmark in",
    "`bench/content.ts` (`npm run bench` runs it with the rest) and written here",
    "by its `--write-readme` flag. Ratios compare contenders measured in the same run; absolute rates",
    "depend on the machine.",
    "",
    BENCH_START,
    section,
    BENCH_END,
    "",
    "",
  ].join("\n");
  if (following === -1) return `${page.trimEnd()}\n\n${block.trimEnd()}\n`;
  return `${page.slice(0, following + 1)}${block}${page.slice(following + 1)}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const report = await runContentBench();
  printContentBench(report);
  console.log(`\n(content benchmark: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  if (process.argv.includes("--write-readme") || process.env.BENCH_WRITE_README === "1") {
    writeFileSync(
      PAGE_URL,
      withPerformanceSection(readFileSync(PAGE_URL, "utf8"), performanceSection(report)),
    );
    console.log(`${PAGE}: performance section rewritten`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
