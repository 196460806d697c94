import { fail } from "../webhooks/WebhookVerificationError.js";
import { utf8 } from "./bytes.js";

/**
 * A signing secret: a string (its UTF-8 bytes are the key, ruling 17) or the key bytes themselves.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookSecret } from "messaging-events/webhooks";
 *
 * const fromText: WebhookSecret = "whsec_…";
 * const fromBytes: WebhookSecret = new Uint8Array([0x5e, 0x1f, 0x9a]);
 * ```
 */
export type WebhookSecret = string | Uint8Array | ArrayBuffer;

const cache = new Map<string, Promise<CryptoKey>>();

/**
 * The HMAC-SHA-512 key for a secret (ruling 17: a string's UTF-8 bytes, or the bytes as given),
 * imported once and cached by the secret's value, so that one-shot calls do not re-import a key per
 * call. The cache holds up to 64 secrets of up to 4 KB each, and starts over when full; a server
 * with more secrets than that should keep a `createWebhookVerifier` per secret.
 */
export function hmacKey(secret: WebhookSecret): Promise<CryptoKey> {
  const bytes = typeof secret === "string" ? utf8(secret) : new Uint8Array(secret);
  // The key bytes as a string identify the key; very long secrets are not cached.
  const id = bytes.length > 4096 ? "" : String.fromCharCode(...bytes);
  let key = cache.get(id);
  if (!key) {
    key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-512" }, false, ["sign", "verify"]);
    if (cache.size > 63) cache.clear();
    if (id) cache.set(id, key);
  }
  return key;
}

/**
 * The keys of one secret or a list of them (rotation). Throws a `WebhookVerificationError`
 * (`ERR_WEBHOOK_SECRET_INVALID`) at once if the list is empty or a secret is empty or not a
 * string or bytes.
 */
export function hmacKeys(secret: unknown): Promise<CryptoKey[]> {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  const usable = (item: unknown) =>
    typeof item === "string"
      ? item
      : (item instanceof Uint8Array || item instanceof ArrayBuffer) && item.byteLength;
  return Promise.all(
    (list.length && list.every(usable)
      ? (list as WebhookSecret[])
      : fail("SECRET_INVALID", "secret must be a non-empty string or bytes")
    ).map(hmacKey),
  );
}
