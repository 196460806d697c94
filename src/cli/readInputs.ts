import { readFile, stat } from "node:fs/promises";
import type { ByteSource } from "./CliIo.js";
import { fileErrorReason as reason } from "./fileErrorReason.js";
import { listFlag, type ParsedArgs, stringFlag } from "./parseArgs.js";
import { printable } from "./terminal.js";
import { UsageError } from "./UsageError.js";

/** The flags that name where secrets come from: an environment variable or a file, never argv. */
export interface SecretFlags {
  readonly env: string;
  readonly file: string;
}

/**
 * The secrets named by the flags, at least one. From a file, one trailing line break is dropped
 * (editors add one). A secret is never echoed: messages name the variable or the file only.
 */
export async function readSecrets(
  args: ParsedArgs,
  flags: SecretFlags,
  what: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const names = [
    ...listFlag(args, flags.env),
    ...[stringFlag(args, flags.env)].filter((x) => x !== undefined),
  ];
  const files = [
    ...listFlag(args, flags.file),
    ...[stringFlag(args, flags.file)].filter((x) => x !== undefined),
  ];
  const secrets: string[] = [];
  for (const name of names) secrets.push(secretFromEnv(name, env));
  for (const path of files) {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read the secret file ${printable(path)}: ${reason(error)}`);
    }
    const secret = text.replace(/\r?\n$/, "");
    if (secret === "") throw new UsageError(`the secret file ${printable(path)} is empty`);
    secrets.push(secret);
  }
  if (secrets.length === 0) {
    throw new UsageError(`${what} needs the secret`, `--${flags.env} NAME or --${flags.file} PATH`);
  }
  return secrets;
}

/** The value of an environment variable that holds a secret or credentials; it must be set and not empty. */
export function secretFromEnv(name: string, env: Readonly<Record<string, string | undefined>>): string {
  const value = env[name];
  if (value === undefined) throw new UsageError(`the environment variable ${printable(name)} is not set`);
  if (value === "") throw new UsageError(`the environment variable ${printable(name)} is empty`);
  return value;
}

/**
 * The bytes of a file, or of standard input for `-` or no file, up to `maxBytes`: a larger input is
 * a usage error, found before (file) or while (stream) reading.
 */
export async function readInput(
  file: string | undefined,
  stdin: ByteSource,
  maxBytes: number,
  what: string,
): Promise<Uint8Array> {
  if (file !== undefined && file !== "-") {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (error) {
      throw new UsageError(`cannot read ${what} ${printable(file)}: ${reason(error)}`);
    }
    if (size > maxBytes) throw new UsageError(`${what} ${printable(file)} is larger than ${maxBytes} bytes`);
    try {
      return new Uint8Array(await readFile(file));
    } catch (error) {
      throw new UsageError(`cannot read ${what} ${printable(file)}: ${reason(error)}`);
    }
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) throw new UsageError(`${what} on standard input is larger than ${maxBytes} bytes`);
    chunks.push(bytes);
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}
