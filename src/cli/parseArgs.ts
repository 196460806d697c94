import { parseArgs as tokenize } from "node:util";
import { quote } from "../internal/describe.js";
import { editDistance } from "../internal/editDistance.js";
import { UsageError } from "./UsageError.js";
import { alternatives } from "./wording.js";

/** One flag a command accepts. */
export interface FlagSpec {
  /** The long name, without the dashes: `format` for `--format`. */
  readonly name: string;
  /** `boolean` takes no value; `string` takes one; `list` takes one and may be repeated. */
  readonly type: "boolean" | "string" | "list";
  /** The values allowed, when the set is closed. */
  readonly values?: readonly string[];
  /** The value's name in the help text: `--port PORT`. */
  readonly placeholder?: string;
  /** One line for the help text. */
  readonly description: string;
}

/** What a command line says: flags by name, and the other words in order. */
export interface ParsedArgs {
  readonly flags: Readonly<Record<string, string | boolean | readonly string[]>>;
  readonly positionals: readonly string[];
  /**
   * Every flag that took a value, in the order given: where the order of two flags matters
   * (`--secret-file new --secret-env OLD`: newest first).
   */
  readonly ordered: readonly (readonly [name: string, value: string])[];
}

/**
 * Flags that must never exist, with what to use instead: a secret on the command line ends up in
 * the shell's history and in every `ps` listing.
 */
const refused: Readonly<Record<string, string>> = {
  secret: "a secret never goes on the command line: use --secret-env NAME or --secret-file PATH",
  "webhook-secret": "a secret never goes on the command line: use --secret-env NAME or --secret-file PATH",
  password: "a secret never goes on the command line: use --secret-env NAME or --secret-file PATH",
  authorization: "credentials never go on the command line: use --authorization-env NAME",
  credentials: "credentials never go on the command line: use --authorization-env NAME",
  token: "credentials never go on the command line: use --authorization-env NAME",
};

/** The closest of `candidates` to `word`, if one is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const allowed = word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const d =
      candidate.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, candidate, bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Reads a command line against the flags a command accepts: `--name value`, `--name=value`,
 * `--flag`, `-h` for `--help`, `--` to end the flags; `-` alone is a word (standard input).
 * Node's `util.parseArgs` splits the words; this layer adds what it lacks: a {@link UsageError} for
 * an unknown flag (with the closest known one as a hint, or where a secret goes instead), a missing
 * value, a flag given twice, or a value outside a closed set.
 */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const options: Record<string, { type: "boolean" | "string"; short?: string }> = {
    help: { type: "boolean", short: "h" },
  };
  for (const spec of specs) options[spec.name] = { type: spec.type === "boolean" ? "boolean" : "string" };
  const { tokens } = tokenize({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const flags: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  const ordered: (readonly [string, string])[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === "option-terminator") continue;
    if (token.rawName === "-h") {
      flags.help = true;
      continue;
    }
    if (!token.rawName.startsWith("--")) {
      throw new UsageError(
        `unknown option ${quote(token.rawName)}`,
        "options are spelled with two dashes: --help",
      );
    }
    const { name } = token;
    const spec = byName.get(name);
    if (spec === undefined) {
      const refusal = refused[name];
      if (refusal !== undefined) throw new UsageError(`there is no --${name} option`, refusal);
      const near = closest(
        name,
        specs.map((known) => known.name),
      );
      throw new UsageError(
        `unknown option ${quote(`--${name}`)}`,
        near === undefined ? undefined : `did you mean --${near}?`,
      );
    }
    if (spec.type === "boolean") {
      if (token.value !== undefined) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const { value } = token;
    // Node takes the next word as the value whatever it is; "--port --host x" lacks the port.
    if (value === undefined || (token.inlineValue === false && value.startsWith("--") && value.length > 2)) {
      throw new UsageError(`--${name} needs a value`, `--${name} ${spec.placeholder ?? "VALUE"}`);
    }
    if (spec.values !== undefined && !spec.values.includes(value)) {
      const near = closest(value, spec.values);
      throw new UsageError(
        `--${name} must be ${alternatives(spec.values)}, not ${quote(value)}`,
        near === undefined ? undefined : `did you mean --${name} ${near}?`,
      );
    }
    ordered.push([name, value]);
    if (spec.type === "list") {
      const list = flags[name];
      flags[name] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      if (name in flags) throw new UsageError(`--${name} is given twice`);
      flags[name] = value;
    }
  }
  return { flags, positionals, ordered };
}

/** The value of a string flag, if given. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === "string" ? value : undefined;
}

/** The values of a repeatable flag (empty when not given). */
export function listFlag(args: ParsedArgs, name: string): readonly string[] {
  const value = args.flags[name];
  return Array.isArray(value) ? value : [];
}

/** Whether a boolean flag is set. */
export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.flags[name] === true;
}

/** An integer flag within bounds, or its default; a usage error otherwise. */
export function integerFlag(
  args: ParsedArgs,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = stringFlag(args, name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not ${quote(text)}`);
  }
  return Number(text);
}
