/**
 * Runs the `messaging-events` program as a user does: a child process with real standard input,
 * output and error. {@link cliCommand} is the one place that says which program runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The command that starts the program: the built bin, as `npx messaging-events` runs it (the
 * package's `bin` entry points here; `npm test` builds first when dist/ is stale).
 */
export function cliCommand(): readonly string[] {
  return [process.execPath, `${root}dist/cli/main.js`];
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** What to write to standard input (closed at once when absent). */
  readonly input?: string | Uint8Array | AsyncIterable<Uint8Array | string>;
  /** Extra environment variables (NO_COLOR and FORCE_COLOR are cleared unless given). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts the program with `args`, without waiting. */
export function startCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): ChildProcess {
  const [command, ...prefix] = cliCommand();
  const base = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  return spawn(command!, [...prefix, ...args], { cwd: root, env: { ...base, ...env }, stdio: "pipe" });
}

/** Runs the program to its end and collects its output. */
export async function runCli(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const child = startCli(args, options.env);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const { input } = options;
  child.stdin!.on("error", () => {});
  if (input === undefined) child.stdin!.end();
  else if (typeof input === "string" || input instanceof Uint8Array) child.stdin!.end(input);
  else {
    for await (const chunk of input) {
      if (!child.stdin!.write(chunk)) await new Promise((resolve) => child.stdin!.once("drain", resolve));
    }
    child.stdin!.end();
  }
  return { code: await exited, stdout, stderr };
}

/** The NDJSON lines of an output, parsed. */
export const jsonLines = (text: string): unknown[] =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
