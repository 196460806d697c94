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

/** The secrets of a secret or a list of them, or `undefined` if one is empty or not a string or bytes. */
export function usableSecrets(secret: unknown): WebhookSecret[] | undefined {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  const size = (item: unknown) =>
    typeof item === "string"
      ? item.length
      : item instanceof Uint8Array || item instanceof ArrayBuffer
        ? item.byteLength
        : 0;
  return list.length > 0 && list.every(size) ? (list as WebhookSecret[]) : undefined;
}

/** The message of `ERR_WEBHOOK_SECRET_INVALID`. */
export const SECRET_PROBLEM = "secret must be a non-empty string or bytes";

const cache = new Map<string, Promise<CryptoKey>>();

/**
 * The HMAC-SHA-512 key for a secret (ruling 17: a string's UTF-8 bytes, or the bytes as given),
 * imported once and cached by the secret's value, so that one-shot calls do not re-import a key per
 * call. The cache holds at most 64 secrets (it starts over when full); secrets over 4 KB are not
 * cached: use `createWebhookVerifier` for those.
 */
export function hmacKey(secret: WebhookSecret): Promise<CryptoKey> {
  const bytes: Uint8Array<ArrayBuffer> = typeof secret === "string" ? utf8(secret) : new Uint8Array(secret);
  const id = bytes.length > 4096 ? "" : String.fromCharCode(...bytes);
  let key = cache.get(id);
  if (!key) {
    key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-512" }, false, ["sign", "verify"]);
    if (cache.size > 63) cache.clear();
    if (id) cache.set(id, key);
  }
  return key;
}

/** The keys of one secret or a list of them (rotation), or a rejection that says what is wrong. */
export async function hmacKeys(secret: unknown): Promise<CryptoKey[]> {
  return Promise.all((usableSecrets(secret) ?? fail("SECRET_INVALID", SECRET_PROBLEM)).map(hmacKey));
}
