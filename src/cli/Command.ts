import type { CliIo } from "./CliIo.js";
import type { FlagSpec, ParsedArgs } from "./parseArgs.js";

/** One subcommand of `messaging-events`: what it takes, how it is explained, and what it does. */
export interface Command {
  readonly name: string;
  /** One line for the list of commands. */
  readonly summary: string;
  /** The synopsis after the program name: `validate [options] [files...]`. */
  readonly usage: string;
  /** Paragraphs explaining the command, for `--help`. */
  readonly description: string;
  readonly flags: readonly FlagSpec[];
  /** Command lines shown under "Examples", each with a comment. */
  readonly examples: readonly string[];
  /** Runs the command and resolves to the exit status. Throws `UsageError` for a bad command line. */
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** The flag every command accepts. */
export const helpFlag: FlagSpec = { name: "help", type: "boolean", description: "show this help" };

/** The `--help` text of a command. */
export function helpText(program: string, command: Command): string {
  const flags = [...command.flags, helpFlag].map((flag) => {
    const left = `--${flag.name}${flag.type === "boolean" ? "" : ` ${flag.placeholder ?? "VALUE"}`}`;
    return [left, `${flag.description}${flag.type === "list" ? " (repeatable)" : ""}`] as const;
  });
  const width = Math.max(...flags.map(([left]) => left.length));
  return [
    `Usage: ${program} ${command.usage}`,
    "",
    command.summary,
    "",
    command.description,
    "",
    "Options:",
    ...flags.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    "Examples:",
    ...command.examples.map((example) => `  ${example}`),
    "",
  ].join("\n");
}
