import { IDEMPOTENCY_KEY_META } from "../idempotency/idempotencyKey.js";
import { digestHex } from "../internal/bytes.js";

/**
 * JSON text of a value with the members of every object sorted by name (UTF-16 order) and no white
 * space, so two documents that mean the same have the same text. Walks with an explicit stack, so
 * depth cannot overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  // Most documents are shallow JSON data: a copy with sorted members written by JSON.stringify is
  // the fastest, and makes the least garbage. What it cannot take (member names that JavaScript
  // orders first, values that are not JSON data, depth) goes through one walk that takes anything:
  // at most two passes over any document, so a crafted one costs at most twice a plain one.
  return sortedJson(value) ?? deepCanonicalJson(value);
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

/** One object or array being written by {@link deepCanonicalJson}. */
interface Frame {
  readonly node: Readonly<Record<string, unknown>> | readonly unknown[];
  /** The member names in canonical order; `undefined` for an array. */
  readonly names: readonly string[] | undefined;
  readonly length: number;
  index: number;
  wrote: boolean;
}

/**
 * @internal The walk for any value and any depth (exported for its test): an explicit stack of
 * frames, each member read once and each piece of text appended once, so its cost is linear in the
 * size of the value (plus the sorting of each object's names).
 */
export function deepCanonicalJson(value: unknown): string {
  let out = "";
  const frames: Frame[] = [];
  let next: unknown = value;
  for (;;) {
    // Write `next`: a primitive at once; an object or an array opens a frame.
    if (typeof next !== "object" || next === null) {
      out += JSON.stringify(next) ?? "null";
    } else if (Array.isArray(next)) {
      out += "[";
      frames.push({ node: next, names: undefined, length: next.length, index: 0, wrote: false });
    } else {
      const names = sortNames(Object.keys(next));
      out += "{";
      frames.push({
        node: next as Readonly<Record<string, unknown>>,
        names,
        length: names.length,
        index: 0,
        wrote: false,
      });
    }
    // Find the next value to write, closing the frames that are done.
    let found = false;
    while (!found && frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const names = frame.names;
      while (frame.index < frame.length) {
        if (names === undefined) {
          if (frame.index > 0) out += ",";
          next = (frame.node as readonly unknown[])[frame.index++];
          found = true;
          break;
        }
        const name = names[frame.index++]!;
        const member = (frame.node as Readonly<Record<string, unknown>>)[name];
        if (member === undefined) continue;
        if (frame.wrote) out += ",";
        out += JSON.stringify(name);
        out += ":";
        frame.wrote = true;
        next = member;
        found = true;
        break;
      }
      if (!found) {
        out += names === undefined ? "]" : "}";
        frames.pop();
      }
    }
    if (!found) return out;
  }
}

/**
 * The fingerprint of a request document: the SHA-256 of its canonical JSON, as 64 lowercase hex
 * digits. Member order and white space do not change it; any value does, except
 * `data.meta["idempotency-key"]`: the key is the record's name, not part of the request, and a
 * retry may send it in the header only. The rest of `data.meta` counts (it reaches `create` with
 * the document), and a `data.meta` left empty counts as absent. A string at once where the
 * runtime hashes synchronously (Node, Bun, Deno), else a promise (Web Crypto).
 */
export function fingerprintDocument(document: unknown): string | Promise<string> {
  const text = canonicalJson(withoutIdempotencyKey(document));
  return nodeSha256(text) ?? webCryptoSha256(text);
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The document without `data.meta["idempotency-key"]`, and without a `data.meta` left empty. */
function withoutIdempotencyKey(document: unknown): unknown {
  if (!isRecord(document) || !isRecord(document.data) || !isRecord(document.data.meta)) return document;
  const { meta, ...data } = document.data as Readonly<Record<string, unknown>> & {
    meta: Readonly<Record<string, unknown>>;
  };
  const { [IDEMPOTENCY_KEY_META]: _key, ...rest } = meta;
  if (Object.keys(rest).length > 0) {
    if (_key === undefined && !Object.hasOwn(meta, IDEMPOTENCY_KEY_META)) return document;
    (data as Record<string, unknown>).meta = rest;
  }
  // Spread copies define their members, so a member named __proto__ stays a member.
  return { ...document, data };
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
