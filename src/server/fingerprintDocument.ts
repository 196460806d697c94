import { digestHex } from "../internal/bytes.js";

/**
 * JSON text of a value with the members of every object sorted by name (UTF-16 order) and no white
 * space, so two documents that mean the same have the same text. Walks with an explicit stack, so
 * depth cannot overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  // Most documents are shallow JSON data: a copy with sorted members written by JSON.stringify is
  // the fastest, and makes the least garbage; what it cannot take (member names that JavaScript
  // orders first, values that are not JSON data) goes through a recursive walk; anything deeper
  // than either goes takes the explicit stack below.
  return sortedJson(value) ?? shallowCanonicalJson(value, 0) ?? deepCanonicalJson(value);
}

const SHALLOW_DEPTH = 64;

/** The names of an object's members in UTF-16 order (what `sort()` gives), in place. */
function sortNames(names: string[]): string[] {
  if (names.length > 16) return names.sort();
  // Insertion sort: a handful of names, and no work array for the built-in sort to allocate.
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    while (j >= 0 && names[j]! > name) {
      names[j + 1] = names[j]!;
      j--;
    }
    names[j + 1] = name;
  }
  return names;
}

/** Thrown inside {@link sortedCopy} for a value it cannot take. */
class NotPlainJson extends Error {}

/**
 * `JSON.stringify` of a copy whose objects hold their members in sorted order; `undefined` where
 * that would not be the canonical text: a member name JavaScript orders before the others (an array
 * index) or that a plain object cannot hold as data (`__proto__`), a value JSON.stringify writes
 * differently from the walk (functions, symbols, big integers), a `toJSON` on the prototypes, depth.
 */
function sortedJson(value: unknown): string | undefined {
  if (
    (Object.prototype as { toJSON?: unknown }).toJSON !== undefined ||
    (Array.prototype as { toJSON?: unknown }).toJSON !== undefined
  ) {
    return undefined;
  }
  try {
    return JSON.stringify(sortedCopy(value, 0));
  } catch {
    // Not plain JSON data, or a copy that could not be written (frozen prototypes): the walk decides.
    return undefined;
  }
}

function sortedCopy(value: unknown, depth: number): unknown {
  if (typeof value !== "object") {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
    if (value === undefined && depth > 0) return value;
    throw new NotPlainJson();
  }
  if (value === null) return value;
  if (depth >= SHALLOW_DEPTH) throw new NotPlainJson();
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = sortedCopy(value[index], depth + 1);
    return copy;
  }
  const record = value as Record<string, unknown>;
  const names = sortNames(Object.keys(record));
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    const first = name.charCodeAt(0);
    if ((first >= 48 && first <= 57) || name === "__proto__") throw new NotPlainJson();
    copy[name] = sortedCopy(record[name], depth + 1);
  }
  return copy;
}

function shallowCanonicalJson(value: unknown, depth: number): string | undefined {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (depth >= SHALLOW_DEPTH) return undefined;
  let out: string;
  if (Array.isArray(value)) {
    out = "[";
    for (let index = 0; index < value.length; index++) {
      const item = shallowCanonicalJson(value[index], depth + 1);
      if (item === undefined) return undefined;
      if (index > 0) out += ",";
      out += item;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortNames(Object.keys(record));
  out = "{";
  let first = true;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const member = record[key];
    if (member === undefined) continue;
    const text = shallowCanonicalJson(member, depth + 1);
    if (text === undefined) return undefined;
    if (!first) out += ",";
    out += JSON.stringify(key);
    out += ":";
    out += text;
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
 * The fingerprint of a request document: the SHA-256 of its canonical JSON, as 64 lowercase hex
 * digits. Member order and white space do not change it; any value does. A string at once where
 * the runtime hashes synchronously (Node, Bun, Deno), else a promise (Web Crypto).
 */
export function fingerprintDocument(document: unknown): string | Promise<string> {
  const text = canonicalJson(document);
  return nodeSha256(text) ?? webCryptoSha256(text);
}

const webCryptoSha256 = (text: string) => digestHex("SHA-256", text);

interface NodeCrypto {
  /** One-shot hashing (Node 20.12, 21.7 and later): no hash object to make for a small text. */
  hash?(algorithm: "sha256", text: string, encoding: "hex"): string;
  createHash(algorithm: "sha256"): {
    update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string };
  };
}

let nodeSha256Hex: ((text: string) => string) | null | undefined;

/**
 * SHA-256 in hex, synchronously, where the runtime offers Node's crypto without an import (Node,
 * Bun, Deno: `process.getBuiltinModule`); `undefined` elsewhere. Web Crypto's digest goes through a
 * thread pool on Node and costs several times more for a document this small.
 */
function nodeSha256(text: string): string | undefined {
  if (nodeSha256Hex === undefined) nodeSha256Hex = findNodeSha256();
  return nodeSha256Hex === null ? undefined : nodeSha256Hex(text);
}

function findNodeSha256(): ((text: string) => string) | null {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const found = process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
    if (typeof found?.createHash !== "function") return null;
    const viaObject = (text: string) => found.createHash("sha256").update(text, "utf8").digest("hex");
    const hash = found.hash;
    if (typeof hash !== "function") return viaObject;
    // Strings are hashed as UTF-8 by both; the one-shot is used only if it gives the same digest.
    const viaHash = (text: string) => hash.call(found, "sha256", text, "hex");
    return viaHash("é\u{1F44B}") === viaObject("é\u{1F44B}") ? viaHash : viaObject;
  } catch {
    return null;
  }
}
