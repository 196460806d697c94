/**
 * No handle left open: a process that used the dispatcher and the memory queue (a delivery retried,
 * another waiting for a retry a minute away) exits by itself once both are closed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";

const outDir = fileURLToPath(new URL("../../.tmp/dispatch-handles/", import.meta.url));
const script = `${outDir}memoryProcess.mjs`;

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL("./memoryProcess.ts", import.meta.url))],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
  });
});

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

it("a process exits by itself after close(), with a retry still waiting", async () => {
  const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(Date.now() - started).toBeLessThan(10_000);
  const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as { closed: boolean; resources: string[] };
  expect(report.closed).toBe(true);
  expect(report.resources.filter((resource) => resource === "Timeout")).toEqual([]);
});
