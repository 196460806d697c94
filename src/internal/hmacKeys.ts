import { bytesOf, utf8 } from "./bytes.js";

/**
 * The key bytes of a secret: a string's UTF-8 bytes, or the bytes of any `ArrayBufferView` or
 * `ArrayBuffer`; `undefined` when the secret is empty or neither.
 */
export function secretBytes(secret: unknown): Uint8Array | undefined {
  const bytes = typeof secret === "string" ? utf8(secret) : bytesOf(secret);
  return bytes?.length ? bytes : undefined;
}

const cache = new Map<string, Promise<CryptoKey>>();

/**
 * The HMAC-SHA-512 key for the given key bytes, imported once and cached by their value, so that
 * one-shot calls do not re-import a key per call. The cache holds up to 64 keys of up to 4 KB each,
 * and starts over when full; a server with more secrets than that should keep a bound verifier per
 * secret.
 */
export function hmacKey(bytes: Uint8Array): Promise<CryptoKey> {
  // The key bytes as a string identify the key; very long keys are not cached.
  const id = bytes.length > 4096 ? "" : String.fromCharCode(...bytes);
  let key = cache.get(id);
  if (!key) {
    // A copy: the key may live in a SharedArrayBuffer, which Web Crypto refuses.
    key = crypto.subtle.importKey("raw", bytes.slice(), { name: "HMAC", hash: "SHA-512" }, false, [
      "sign",
      "verify",
    ]);
    if (cache.size > 63) cache.clear();
    if (id) cache.set(id, key);
  }
  return key;
}
