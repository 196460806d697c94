// Control characters, DEL, C1 controls, line and paragraph separators and bidirectional overrides:
// anything that could move the cursor, colour the terminal or forge a line of output.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to escape.
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text from the input (a pointer, a file name) made safe to print on a terminal: controls escaped. */
export function printable(text: string): string {
  return text.replace(unsafe, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The styles the program uses; each is the identity when colour is off. */
export interface Styles {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Styles with or without ANSI colour. */
export function createStyles(colour: boolean): Styles {
  return colour
    ? {
        bold: sgr(1, 22),
        dim: sgr(2, 22),
        red: sgr(31, 39),
        green: sgr(32, 39),
        yellow: sgr(33, 39),
        cyan: sgr(36, 39),
      }
    : { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
}

/**
 * Whether to colour a stream: only a terminal, and never when `NO_COLOR` is set to anything
 * (https://no-color.org). `FORCE_COLOR` (not `0`) colours a pipe too.
 */
export function wantsColour(
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return isTTY === true;
}
