/**
 * The delivering child processes of the BullMQ suites: `bullmqWorker.ts` bundled once with esbuild
 * (the Redis clients and bullmq stay imports, so each process starts in well under a second),
 * started with this Node, read line by line (`ready`, then one JSON line per attempt), stopped by
 * SIGTERM or killed by SIGKILL as a crash would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export interface BullMQWorkerProcess {
  readonly child: ChildProcess;
  /** Resolves once it wrote "ready"; rejects with its stderr if it exits first. */
  readonly ready: Promise<void>;
  /** Its exit code (`null` when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Kills it at once (SIGKILL), unless it already exited. */
  kill(): void;
}

/** Bundles the worker into `script` (creating its folder). */
export async function buildBullMQWorker(script: string): Promise<void> {
  mkdirSync(script.slice(0, script.lastIndexOf("/") + 1), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL("./bullmqWorker.ts", import.meta.url))],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["redis", "bullmq", "ioredis"],
    logLevel: "error",
  });
}

/** Starts the bundled worker with `env` on top of this process's environment. */
export function startBullMQWorker(script: string, env: Record<string, string>): BullMQWorkerProcess {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffered = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      if (buffered.includes("ready\n")) resolve();
      buffered = buffered.slice(-10);
    });
    child.once("exit", () => reject(new Error(`worker exited before it was ready: ${stderr}`)));
  });
  ready.catch(() => undefined); // a child that never gets ready fails the test that awaits it
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    ready,
    exited,
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
