/**
 * JSON text of a value with the members of every object sorted by name (UTF-16 order) and no white
 * space, so two documents that mean the same have the same text. Walks with an explicit stack, so
 * depth cannot overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  // Most documents are shallow: a plain recursive walk is several times faster; anything deeper
  // than it goes takes the explicit stack below.
  const fast = shallowCanonicalJson(value, 0);
  return fast ?? deepCanonicalJson(value);
}

const SHALLOW_DEPTH = 64;

function shallowCanonicalJson(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (depth >= SHALLOW_DEPTH) return undefined;
  let out: string;
  if (Array.isArray(value)) {
    out = "[";
    for (let index = 0; index < value.length; index++) {
      const item = shallowCanonicalJson(value[index], depth + 1);
      if (item === undefined) return undefined;
      out += index > 0 ? `,${item}` : item;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out = "{";
  let first = true;
  for (const key of keys) {
    if (record[key] === undefined) continue;
    const member = shallowCanonicalJson(record[key], depth + 1);
    if (member === undefined) return undefined;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${member}`;
    first = false;
  }
  return `${out}}`;
}

/** @internal The explicit-stack walk, for any depth (exported for its test). */
export function deepCanonicalJson(value: unknown): string {
  let out = "";
  const stack: unknown[] = [value];
  // Items are values to write, or literal strings (punctuation) wrapped so they cannot be confused.
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Literal) {
      out += item.text;
      continue;
    }
    if (item === null || typeof item !== "object") {
      out += JSON.stringify(item) ?? "null";
      continue;
    }
    const parts: unknown[] = [];
    if (Array.isArray(item)) {
      parts.push(new Literal("["));
      item.forEach((element, index) => {
        if (index > 0) parts.push(new Literal(","));
        parts.push(element);
      });
      parts.push(new Literal("]"));
    } else {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      parts.push(new Literal("{"));
      keys.forEach((key, index) => {
        parts.push(new Literal(`${index > 0 ? "," : ""}${JSON.stringify(key)}:`));
        parts.push(record[key]);
      });
      parts.push(new Literal("}"));
    }
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
  }
  return out;
}

class Literal {
  constructor(readonly text: string) {}
}

/**
 * The fingerprint of a request document: the SHA-256 (Web Crypto) of its canonical JSON, as 64
 * lowercase hex digits. Member order and white space do not change it; any value does.
 */
export async function fingerprintDocument(document: unknown): Promise<string> {
  const text = canonicalJson(document);
  const hashed = nodeSha256(text);
  if (hashed !== undefined) return hashed;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

interface NodeCrypto {
  createHash(algorithm: "sha256"): {
    update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string };
  };
}

let nodeCrypto: NodeCrypto | null | undefined;

/**
 * SHA-256 in hex, synchronously, where the runtime offers Node's crypto without an import (Node,
 * Bun, Deno: `process.getBuiltinModule`); `undefined` elsewhere. Web Crypto's digest goes through a
 * thread pool on Node and costs several times more for a document this small.
 */
function nodeSha256(text: string): string | undefined {
  if (nodeCrypto === undefined) {
    try {
      const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const found = process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
      nodeCrypto = typeof found?.createHash === "function" ? found : null;
    } catch {
      nodeCrypto = null;
    }
  }
  return nodeCrypto?.createHash("sha256").update(text, "utf8").digest("hex");
}
