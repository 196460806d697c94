import { open } from "node:fs/promises";
import type { ByteSource } from "./CliIo.js";
import { fileErrorReason as reason } from "./fileErrorReason.js";
import type { ParsedArgs } from "./parseArgs.js";
import { printable } from "./terminal.js";
import { UsageError } from "./UsageError.js";

/** The largest secret file read: a secret is a few dozen bytes, and /dev/zero is endless. */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

const CHUNK_BYTES = 64 * 1024;

/** Where secrets come from on every command that signs or verifies: an environment variable or a file. */
export const secretFlags = [
  {
    name: "secret-env",
    type: "list",
    placeholder: "NAME",
    description: "the environment variable that holds a secret; several are newest first",
  },
  {
    name: "secret-file",
    type: "list",
    placeholder: "PATH",
    description: "a file that holds a secret; several are newest first",
  },
] as const;

/**
 * The secrets named by `--secret-env` and `--secret-file`, at least one, in the order given (newest
 * first: the first signs, any verifies). From a file, one trailing line break is dropped (editors
 * add one). A secret is never echoed: messages name the variable or the file only.
 */
export async function readSecrets(
  args: ParsedArgs,
  what: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const secrets: string[] = [];
  for (const [flag, value] of args.ordered) {
    if (flag === "secret-env") secrets.push(secretFromEnv(flag, value, env));
    else if (flag === "secret-file") secrets.push(await secretFromFile(value));
  }
  if (secrets.length === 0) {
    throw new UsageError(`${what} needs the secret`, "--secret-env NAME or --secret-file PATH");
  }
  return secrets;
}

async function secretFromFile(path: string): Promise<string> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readFileAtMost(path, MAX_SECRET_FILE_BYTES);
  } catch (error) {
    // A path that names nothing may be a secret given where its file belongs: not echoed.
    const code = (error as { code?: unknown } | null)?.code;
    const which = code === "ENOENT" ? "given to --secret-file" : printable(path);
    throw new UsageError(`cannot read the secret file ${which}: ${reason(error)}`);
  }
  if (bytes === undefined) {
    throw new UsageError(
      `the secret file ${printable(path)} is larger than ${MAX_SECRET_FILE_BYTES} bytes: not a secret`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`the secret file ${printable(path)} is not UTF-8 text`);
  }
  const secret = text.replace(/\r?\n$/, "");
  if (secret === "") throw new UsageError(`the secret file ${printable(path)} is empty`);
  return secret;
}

// A portable environment variable name, of a length a person types.
const variableName = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * The value of the environment variable that `--<flag> NAME` names, holding a secret or credentials;
 * it must be set and not empty. A NAME that cannot be a variable name is likely the value itself,
 * expanded by the shell where its name belongs (`--secret-env "$WEBHOOK_SECRET"`): it is never
 * echoed.
 */
export function secretFromEnv(
  flag: string,
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (!variableName.test(name)) {
    throw new UsageError(
      `--${flag} takes the name of an environment variable; what it was given is not a variable name (not shown: it may be the value itself)`,
      `--${flag} ${flag === "secret-env" ? "WEBHOOK_SECRET" : "TOKEN"} (the variable's name, without "$")`,
    );
  }
  const value = env[name];
  if (value === undefined) throw new UsageError(`the environment variable ${name} is not set`);
  if (value === "") throw new UsageError(`the environment variable ${name} is empty`);
  return value;
}

/**
 * The bytes of a file, or of standard input for `-` or no file, up to `maxBytes`: a larger input is
 * a usage error. Every file is read with the cap, whatever it is: a device or a FIFO says its size
 * is 0, so no size is trusted and reading stops at `maxBytes + 1`.
 */
export async function readInput(
  file: string | undefined,
  stdin: ByteSource,
  maxBytes: number,
  what: string,
): Promise<Uint8Array> {
  if (file !== undefined && file !== "-") {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readFileAtMost(file, maxBytes);
    } catch (error) {
      throw new UsageError(`cannot read ${what} ${printable(file)}: ${reason(error)}`);
    }
    if (bytes === undefined) {
      throw new UsageError(`${what} ${printable(file)} is larger than ${maxBytes} bytes`);
    }
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop early (too large) destroys the stream: nothing more is read.
  for await (const chunk of stdin) {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) throw new UsageError(`${what} on standard input is larger than ${maxBytes} bytes`);
    chunks.push(bytes);
  }
  return concat(chunks, total);
}

/**
 * The bytes of any file (regular, device, FIFO), or `undefined` when it holds more than `maxBytes`;
 * never reads more than `maxBytes + 1` bytes.
 */
export async function readFileAtMost(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
  const handle = await open(path, "r");
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
      const chunk = new Uint8Array(want);
      const { bytesRead } = await handle.read(chunk, 0, want, null);
      if (bytesRead === 0) return concat(chunks, total);
      chunks.push(bytesRead === want ? chunk : chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return undefined;
    }
  } finally {
    await handle.close();
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === total) return chunks[0]!;
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}
