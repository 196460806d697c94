import type { Output } from "./output.js";
import type { Styles } from "./terminal.js";

/** A readable byte stream: process.stdin or a file stream. */
export type ByteSource = AsyncIterable<Uint8Array | string>;

/** Everything a command touches outside itself, so that a command is a function of its inputs. */
export interface CliIo {
  readonly stdin: ByteSource;
  readonly stdout: Output;
  readonly stderr: Output;
  /** Styles for standard output (colour only on a terminal). */
  readonly styles: Styles;
  /** Styles for standard error. */
  readonly errorStyles: Styles;
  /** Whether standard error is a terminal (progress lines are drawn only there). */
  readonly stderrIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Takes SIGINT and SIGTERM over, and resolves with the signal's name when the user asks to stop. */
  readonly untilStopped: () => Promise<string>;
}
