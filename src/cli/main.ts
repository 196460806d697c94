#!/usr/bin/env node
import type { CliIo } from "./CliIo.js";
import { createOutput } from "./output.js";
import { runCli } from "./runCli.js";
import { createStyles, wantsColour } from "./terminal.js";

// Output cut short by the reader (`messaging-events validate big.ndjson | head`): stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

let stopped: Promise<string> | undefined;
// Only a command that waits for a signal (serve) takes SIGINT and SIGTERM over; the others end at once.
const untilStopped = () => {
  stopped ??= new Promise<string>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        resolve(signal);
        // A second signal while shutting down ends the program at once.
        process.once(signal, () => process.exit(130));
      });
    }
  });
  return stopped;
};

const io: CliIo = {
  stdin: process.stdin,
  stdout: createOutput(process.stdout),
  stderr: createOutput(process.stderr),
  styles: createStyles(wantsColour(process.stdout.isTTY, process.env)),
  errorStyles: createStyles(wantsColour(process.stderr.isTTY, process.env)),
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  untilStopped,
};

try {
  process.exitCode = await runCli(process.argv.slice(2), io);
} catch (error) {
  process.stderr.write(
    `messaging-events: unexpected failure: ${(error as Error)?.message ?? String(error)}\n`,
  );
  process.exitCode = 1;
}
