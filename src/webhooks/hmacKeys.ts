import { hmacKey, secretBytes } from "../internal/hmacKeys.js";
import { fail } from "./WebhookVerificationError.js";

const known = new Map<string, Promise<CryptoKey[]>>();

/**
 * The keys of one secret or a list of them (rotation), imported once per secret and cached.
 * Throws a `WebhookVerificationError` (`ERR_WEBHOOK_SECRET_INVALID`) at once, before any request
 * is read, if the list is empty or a secret is empty or not a string or bytes.
 */
export function hmacKeys(secret: unknown): Promise<CryptoKey[]> {
  // One-shot calls with one string secret, the usual case, skip encoding it again.
  let keys = typeof secret === "string" ? known.get(secret) : undefined;
  if (!keys) {
    const list: unknown[] = Array.isArray(secret) ? secret : [secret];
    const bytes = list.map(secretBytes);
    keys = Promise.all(
      (list.length && bytes.every(Boolean)
        ? (bytes as Uint8Array[])
        : fail("SECRET_INVALID", "secret must be a non-empty string or bytes, or a list of them")
      ).map(hmacKey),
    );
    if (typeof secret === "string" && secret.length < 4096) {
      if (known.size > 63) known.clear();
      known.set(secret, keys);
    }
  }
  return keys;
}
