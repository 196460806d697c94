/**
 * `tsx bench/cli.ts`: the `validate` command's throughput and memory.
 *
 * 1. In process, on the same NDJSON lines: the command's pipeline (line splitting of 256 KiB chunks,
 *    kind detection, the library's validation, the human reporter into a sink) against the floor,
 *    `JSON.parse` + `safeParseEvent` per line. Interleaved rounds, medians, ratio printed (target
 *    ≥ 0.8).
 * 2. The program itself (`cliCommand()`, as the tests run it), fed a generated NDJSON stream of
 *    `BENCH_CLI_BYTES` (1 GiB by default) through a pipe: its resident memory is sampled and the peak
 *    must stay under `BENCH_CLI_MAX_RSS_MB` (200 by default), whatever the stream's size.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Output } from "../src/cli/output.js";
import { createStyles } from "../src/cli/terminal.js";
import { createLineSplitter } from "../src/cli/validate/createLineSplitter.js";
import { createReporter } from "../src/cli/validate/createReporter.js";
import { createValueReader } from "../src/cli/validate/createValueReader.js";
import { safeParseEvent } from "../src/events/index.js";
import { cliCommand } from "../test/cli/cli.js";
import { printCase, runCase } from "./harness.js";

const LINES = 5_000;
const templates = [
  (n: number) => `{"type":"s.message.text","content":{"body":"message number ${n}","format":"text/plain"}}`,
  (n: number) =>
    `{"type":"s.room.membership","content":{"membership":"join","initiatorId":"user-${n}","trigger":"Manual"}}`,
  (n: number) => `{"type":"s.presence","content":{"status":"${n % 10 === 0 ? "BUSY" : "ONLINE"}"}}`,
  (n: number) => `{"type":"s.message.media","content":{"mediaId":"m-${n}","label":"photo.png"}}`,
  (_n: number) => `{"type":"s.timer","content":{"status":"RUNNING","expires":"2026-11-22T18:00:00Z"}}`,
];
const lines = Array.from({ length: LINES }, (_, n) => templates[n % templates.length]!(n));
const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
const CHUNK = 256 * 1024;
const chunks: Uint8Array[] = [];
for (let offset = 0; offset < bytes.length; offset += CHUNK)
  chunks.push(bytes.subarray(offset, offset + CHUNK));
const sink: Output = { write() {}, flush: async () => {} };
const options = {
  kind: undefined,
  attributeNames: undefined,
  maxLineBytes: 1024 * 1024,
  maxDocumentBytes: 64 * 1024 * 1024,
};

const pipeline = () => {
  const reporter = createReporter("human", sink, createStyles(false));
  const reader = createValueReader("bench.ndjson", options, reporter.report);
  const splitter = createLineSplitter(options.maxLineBytes, reader);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  reader.end();
  return reporter.tally.valid;
};
const floor = () => {
  let valid = 0;
  for (const line of lines) if (safeParseEvent(JSON.parse(line)).success) valid++;
  return valid;
};
if (pipeline() !== floor()) throw new Error("the pipeline and the floor disagree");

const result = runCase(`validate: ${LINES} NDJSON lines (${(bytes.length / 1024).toFixed(0)} KiB)`, LINES, [
  { name: "validate pipeline (lines, detection, report)", run: pipeline },
  { name: "JSON.parse + safeParseEvent per line (floor)", run: floor },
]);
printCase(result);
const ratio = result.results[0]!.ratio;
console.log(
  `\nvalidate throughput ratio (÷ JSON.parse + safeParseEvent): ${ratio.toFixed(2)} (target ≥ 0.80)`,
);

// 2. Memory of the program on a large piped stream.
const totalBytes = Number(process.env.BENCH_CLI_BYTES ?? 1024 ** 3);
const maxRssMb = Number(process.env.BENCH_CLI_MAX_RSS_MB ?? 200);
const [command, ...prefix] = cliCommand();
const child = spawn(command!, [...prefix, "validate", "-"], { stdio: ["pipe", "pipe", "inherit"] });
let output = "";
child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
  output += chunk;
  if (output.length > 1_000_000) output = output.slice(-10_000);
});
const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
let peakKb = 0;
const sampler = setInterval(() => {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peakKb = Math.max(peakKb, rss);
  } catch {
    // Not Linux, or the process has ended.
  }
}, 100);
const block = new TextEncoder().encode(`${lines.join("\n")}\n`);
const started = performance.now();
let sent = 0;
while (sent < totalBytes) {
  if (!child.stdin.write(block)) await new Promise((resolve) => child.stdin.once("drain", resolve));
  sent += block.length;
}
child.stdin.end();
const code = await exited;
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
const summary = output.trim().split("\n").at(-1);
console.log(
  `\nvalidate - on ${(sent / 1024 ** 3).toFixed(2)} GiB piped in: ${seconds.toFixed(1)} s (${(sent / 1024 ** 2 / seconds).toFixed(0)} MiB/s), peak RSS ${(peakKb / 1024).toFixed(0)} MiB (bound ${maxRssMb} MiB), exit ${code}`,
);
console.log(`  ${summary}`);
if (peakKb === 0) console.log("  (RSS not sampled: /proc is not available here)");
else if (peakKb / 1024 > maxRssMb) {
  console.error(`FAIL: peak RSS ${(peakKb / 1024).toFixed(0)} MiB is above ${maxRssMb} MiB`);
  process.exitCode = 1;
}
