import type { CliIo } from "./CliIo.js";
import { type Command, helpText } from "./Command.js";
import { schemaCommand } from "./commands/schema.js";
import { sendCommand } from "./commands/send.js";
import { serveCommand } from "./commands/serve.js";
import { signCommand } from "./commands/sign.js";
import { validateCommand } from "./commands/validate.js";
import { verifyCommand } from "./commands/verify.js";
import { packageVersion } from "./packageFiles.js";
import { closest, parseArgs } from "./parseArgs.js";
import { printable } from "./terminal.js";
import { EXIT, UsageError } from "./UsageError.js";

/** The program's name, as typed. */
export const PROGRAM = "messaging-events";

/** Every subcommand, in the order the help lists them. */
export const commands: readonly Command[] = [
  validateCommand,
  schemaCommand,
  signCommand,
  verifyCommand,
  sendCommand,
  serveCommand,
];

function mainHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    "",
    "Validate events, JSON:API documents and webhook payloads; print the JSON Schema; sign and verify",
    "webhooks by hand; create an event; run a local emulator of the service.",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Options:",
    "  --help     show this help, or a command's: messaging-events validate --help",
    "  --version  print the version",
    "",
    "Exit status: 0 ok, 1 a check failed, 2 a usage error (a bad command line, or a file or port that",
    "cannot be used).",
    "",
  ].join("\n");
}

function usageFailure(io: CliIo, error: UsageError, command: string | undefined): number {
  const style = io.errorStyles;
  io.stderr.write(`${style.red("error")}: ${printable(error.message)}\n`);
  // One hint: what to type, when something is likely; otherwise where the options are listed.
  const help = `run "${PROGRAM}${command === undefined ? "" : ` ${command}`} --help" for usage`;
  io.stderr.write(`${style.dim("hint")}: ${printable(error.hint ?? help)}\n`);
  return EXIT.usage;
}

/** Runs the program on its arguments (without `node` and the script) and resolves to the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  let status: number;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? commands.find((command) => command.name === rest[0]) : undefined;
    if (first === "help" && rest[0] !== undefined && topic === undefined) {
      status = usageFailure(io, new UsageError(`unknown command ${JSON.stringify(rest[0])}`), undefined);
    } else {
      io.stdout.write(topic === undefined ? mainHelp() : helpText(PROGRAM, topic));
      // No command at all is a usage error; asking for help is not.
      status = first === undefined ? EXIT.usage : EXIT.ok;
    }
  } else if (first === "--version" || first === "-v") {
    io.stdout.write(`${await packageVersion()}\n`);
    status = EXIT.ok;
  } else {
    const command = commands.find((candidate) => candidate.name === first);
    if (command === undefined) {
      const near = closest(
        first,
        commands.map((candidate) => candidate.name),
      );
      const error = new UsageError(
        first.startsWith("-")
          ? `unknown option ${JSON.stringify(first)}`
          : `unknown command ${JSON.stringify(first)}`,
        near === undefined
          ? `the commands are ${commands.map((c) => c.name).join(", ")}`
          : `did you mean "${near}"?`,
      );
      status = usageFailure(io, error, undefined);
    } else {
      try {
        const args = parseArgs(rest, [...command.flags, { name: "help", type: "boolean", description: "" }]);
        if (args.flags.help === true) {
          io.stdout.write(helpText(PROGRAM, command));
          status = EXIT.ok;
        } else status = await command.run(args, io);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        status = usageFailure(io, error, command.name);
      }
    }
  }
  await io.stdout.flush();
  await io.stderr.flush();
  return status;
}
