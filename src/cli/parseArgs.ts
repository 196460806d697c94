import { quote } from "../internal/describe.js";
import { UsageError } from "./UsageError.js";

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
}

/**
 * Flags that must never exist, with what to use instead: a secret on the command line ends up in
 * the shell's history and in every `ps` listing.
 */
const refused: Readonly<Record<string, string>> = {
  secret: "a secret never goes on the command line: use --secret-env NAME or --secret-file PATH",
  "webhook-secret": "a secret never goes on the command line: use --webhook-secret-env NAME",
  credentials: "credentials never go on the command line: use --credentials-env NAME",
  token: "credentials never go on the command line: use --credentials-env NAME",
  password: "a secret never goes on the command line: use --secret-env NAME or --secret-file PATH",
};

/** The edit distance of two short strings (flag names), for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The closest of `candidates` to `word`, if one is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = candidate.startsWith(word) && word.length >= 3 ? 1 : distance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/**
 * Reads a command line against the flags a command accepts: `--name value`, `--name=value`,
 * `--flag`, `-h` for `--help`, `--` to end the flags; `-` alone is a word (standard input). Throws a
 * {@link UsageError} for an unknown flag (with the closest known one as a hint), a missing value or
 * a value outside the allowed set.
 */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const flags: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === "--") {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (word === "-h") {
      flags.help = true;
      continue;
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    if (!word.startsWith("--")) {
      throw new UsageError(`unknown option ${quote(word)}`, "options are spelled with two dashes: --help");
    }
    const equals = word.indexOf("=");
    const name = word.slice(2, equals === -1 ? undefined : equals);
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
        near === undefined ? "see --help for the options" : `did you mean --${near}?`,
      );
    }
    if (spec.type === "boolean") {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    let value: string;
    if (equals !== -1) value = word.slice(equals + 1);
    else {
      const next = argv[index + 1];
      if (next === undefined || (next.startsWith("--") && next.length > 2)) {
        throw new UsageError(`--${name} needs a value`, `--${name} ${spec.placeholder ?? "VALUE"}`);
      }
      value = next;
      index++;
    }
    if (spec.values !== undefined && !spec.values.includes(value)) {
      const near = closest(value, spec.values);
      throw new UsageError(
        `--${name} must be ${spec.values.join(", ")}, not ${quote(value)}`,
        near === undefined ? undefined : `did you mean --${name} ${near}?`,
      );
    }
    if (spec.type === "list") {
      const list = flags[name];
      flags[name] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      if (name in flags) throw new UsageError(`--${name} is given twice`);
      flags[name] = value;
    }
  }
  return { flags, positionals };
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
