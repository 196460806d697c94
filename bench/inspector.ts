/**
 * The emulator's inspector with 10,000 events in its history: the emulator in this process (history
 * of 10,000), 10,000 `POST /events` over loopback, then the page opened in Debian's Chromium
 * (playwright-core, `/usr/bin/chromium`) several times. Measured in the page: the time from the
 * start of navigation to the first paint of the list with every record (the page's own
 * `inspector-painted` mark, one frame after the snapshot is drawn), a text filter over all of them,
 * and a scroll to the oldest; and how many row elements exist (the list is virtual: only the rows in
 * view). Medians of the runs. Skipped when Chromium is missing. `tsx bench/inspector.ts` runs this
 * file alone (after `npm run build`: the page's script is built into dist/inspector/).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startEmulator } from "../src/cli/emulator/startEmulator.js";

const CHROMIUM = "/usr/bin/chromium";
const EVENTS = 10_000;
const RUNS = 3;
const CONCURRENCY = 32;

export interface InspectorBenchResult {
  readonly records: number;
  /** The event stream's snapshot, in bytes. */
  readonly snapshotBytes: number;
  /** Navigation start to the list painted with every record, median, ms. */
  readonly paintedMs: number;
  /** Navigation start to the first contentful paint, median, ms. */
  readonly firstContentfulPaintMs: number;
  /** A text filter over every record, to the next paint, median, ms. */
  readonly filterMs: number;
  /** A scroll from the newest to the oldest, to the next paint, median, ms. */
  readonly scrollMs: number;
  /** Row elements in the page with every record listed. */
  readonly rowElements: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Fills an emulator's history with `EVENTS` created events. */
async function fill(url: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < EVENTS) {
      const index = next++;
      const response = await fetch(`${url}/events`, {
        method: "POST",
        headers: {
          "content-type": "application/vnd.api+json",
          authorization: "Bearer bench",
          "service-idempotency-key": `bench-${index}`,
        },
        body: JSON.stringify({
          data: {
            type: "events",
            attributes: { eventType: "s.message.text", content: { body: `Message ${index} of the bench` } },
            relationships: { room: { data: { type: "rooms", id: `room-${index % 50}` } } },
          },
        }),
      });
      if (response.status !== 201) throw new Error(`POST /events answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The size of the event stream's first message: the snapshot of the whole history. */
async function snapshotSize(url: string): Promise<number> {
  const abort = new AbortController();
  const response = await fetch(`${url}/_inspector/stream`, { signal: abort.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!/^data: .*\n\n/m.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return new TextEncoder().encode(/^data: .*$/m.exec(text)?.[0] ?? "").byteLength;
}

/** Runs the case; `undefined` when Chromium is not installed. */
export async function inspectorCase(): Promise<InspectorBenchResult | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    webhookUrls: [],
    secret: [],
    authorization: undefined,
    chaosRate: 0,
    random: Math.random,
    webhookRetryDelaysMs: undefined,
    log: () => {},
    inspector: { historySize: EVENTS },
  });
  const profile = mkdtempSync(join(tmpdir(), "inspector-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 860 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    await fill(emulator.url);
    const runs: Omit<InspectorBenchResult, "records" | "snapshotBytes">[] = [];
    let records = 0;
    const snapshotBytes = await snapshotSize(emulator.url);
    for (let run = 0; run < RUNS; run++) {
      const page = await context.newPage();
      await page.goto(`${emulator.url}/_inspector`);
      await page.locator("body[data-ready]").waitFor({ timeout: 180_000 });
      await page.waitForFunction(() => performance.getEntriesByName("inspector-painted").length > 0);
      // No named function inside: tsx would wrap it with a helper the page does not have.
      const measured = await page.evaluate(async () => {
        const painted = performance.getEntriesByName("inspector-painted")[0]!.startTime;
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
        const shown = document.getElementById("counts")!.textContent ?? "";
        const rowElements = document.querySelectorAll(".vlist-row").length;
        const input = document.getElementById("filter-text") as HTMLInputElement;
        let start = performance.now();
        input.value = "message 9999 ";
        input.dispatchEvent(new Event("input"));
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const filterMs = performance.now() - start;
        input.value = "";
        input.dispatchEvent(new Event("input"));
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const list = document.querySelector(".vlist")!;
        start = performance.now();
        list.scrollTop = list.scrollHeight;
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const scrollMs = performance.now() - start;
        return { painted, fcp, shown, rowElements, filterMs, scrollMs };
      });
      records = Number(/^(\d+) of/.exec(measured.shown)?.[1] ?? 0);
      runs.push({
        paintedMs: measured.painted,
        firstContentfulPaintMs: measured.fcp,
        filterMs: measured.filterMs,
        scrollMs: measured.scrollMs,
        rowElements: measured.rowElements,
      });
      await page.close();
    }
    return {
      records,
      snapshotBytes,
      paintedMs: median(runs.map((run) => run.paintedMs)),
      firstContentfulPaintMs: median(runs.map((run) => run.firstContentfulPaintMs)),
      filterMs: median(runs.map((run) => run.filterMs)),
      scrollMs: median(runs.map((run) => run.scrollMs)),
      rowElements: Math.max(...runs.map((run) => run.rowElements)),
    };
  } finally {
    await context.close();
    await emulator.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

export function printInspectorCase(result: InspectorBenchResult | undefined): void {
  console.log(
    `\nThe emulator's inspector with ${EVENTS.toLocaleString("en")} events in its history (Chromium, median of ${RUNS} page loads)`,
  );
  if (result === undefined) {
    console.log(`  skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
    return;
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(`  records listed                 ${result.records}`);
  console.log(`  snapshot over the stream       ${(result.snapshotBytes / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`  first contentful paint         ${ms(result.firstContentfulPaintMs)}`);
  console.log(`  list painted with every record ${ms(result.paintedMs)}`);
  console.log(`  text filter over every record  ${ms(result.filterMs)}`);
  console.log(`  scroll to the oldest           ${ms(result.scrollMs)}`);
  console.log(`  row elements in the page       ${result.rowElements}`);
}

export function inspectorSummary(result: InspectorBenchResult | undefined): string {
  return result === undefined
    ? "inspector: skipped (no Chromium)"
    : `inspector: ${result.records} records painted ${Math.round(result.paintedMs)} ms after navigation, with ${result.rowElements} row elements`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await inspectorCase();
  printInspectorCase(result);
  console.log(inspectorSummary(result));
}
