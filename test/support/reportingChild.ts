/**
 * The child processes of the cross-process suites: a TypeScript entry bundled once with esbuild
 * (redis, and whatever else a suite names, stays an import, so each process starts in well under a
 * second), started with this Node,
 * reporting one JSON object per line on stdout, `{ "event": "listening", "port": … }` once it
 * serves. Stopped by SIGTERM (SIGKILL after 10 s), or killed by its PID when a test failed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { build } from "esbuild";

/** One line a child reported. */
export interface ChildReport {
  readonly event: string;
  readonly port?: number;
}

/** A running child and what it reported so far. */
export interface ReportingChild<R extends ChildReport> {
  readonly child: ChildProcess;
  /** The port its `listening` report named. */
  readonly port: number;
  /** Every line it reported, in order. */
  readonly reports: R[];
  /** The last 4,000 characters it wrote on stderr, to show when a test fails. */
  stderr(): string;
  /** Asks it to stop (SIGTERM) and waits until it exits and its output is read: its exit code, -1 when killed. */
  stop(): Promise<number | null>;
  /** Kills it (SIGKILL), as a crash would, unless it already exited. */
  kill(): void;
}

/** Bundles `source` into `script` (creating its folder); `external` packages stay imports. */
export async function bundleChild(
  source: string,
  script: string,
  external: readonly string[] = ["redis"],
): Promise<void> {
  mkdirSync(script.slice(0, script.lastIndexOf("/") + 1), { recursive: true });
  await build({
    entryPoints: [source],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [...external],
    logLevel: "error",
  });
}

/** Starts `script` with `env` and waits until it reports `listening`; fails with its stderr if it exits first. */
export async function startReportingChild<R extends ChildReport>(
  script: string,
  env: Record<string, string>,
  name: string,
): Promise<ReportingChild<R>> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const reports: R[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const closed = once(child, "close");
  let buffered = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const report = JSON.parse(buffered.slice(0, newline)) as R;
        buffered = buffered.slice(newline + 1);
        reports.push(report);
        if (report.event === "listening") resolve(report.port!);
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before listening:\n${stderr}`)));
  }).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    port,
    reports,
    stderr: () => stderr,
    async stop() {
      if (running()) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await closed;
        clearTimeout(timer);
      } else await closed;
      return child.signalCode === null ? child.exitCode : -1;
    },
    kill() {
      if (running()) child.kill("SIGKILL");
    },
  };
}
