import { hmacKey, secretBytes } from "../internal/hmacKeys.js";
import { fail } from "./WebhookVerificationError.js";

/** The most secrets one verification tries: a rotation needs two or three. */
export const MAX_SECRETS = 16;

const known = new Map<string, Promise<CryptoKey[]>>();

const invalid = (): never =>
  fail(
    "SECRET_INVALID",
    `secret must be a non-empty string or bytes, or a list of 1 to ${MAX_SECRETS} of them`,
  );

/** The secrets of a list, read once each; a list longer than the cap is refused before its entries are. */
function secretList(secret: unknown): unknown[] {
  let list: unknown[] | undefined;
  try {
    if (!Array.isArray(secret)) return [secret];
    // A sparse list can claim 2^32 - 1 entries: its length is checked before any entry is read.
    const { length } = secret as unknown[];
    if (length >= 1 && length <= MAX_SECRETS)
      list = Array.from({ length }, (_, index) => (secret as unknown[])[index]);
  } catch {
    // A proxy whose traps throw.
  }
  return list ?? invalid();
}

/**
 * The keys of one secret or a list of up to {@link MAX_SECRETS} (rotation), imported once per
 * secret and cached. Throws a `WebhookVerificationError` (`ERR_WEBHOOK_SECRET_INVALID`) at once,
 * before any request is read, if the list is empty or too long, or a secret is empty or not a
 * string or bytes.
 */
export function hmacKeys(secret: unknown): Promise<CryptoKey[]> {
  // One-shot calls with one string secret, the usual case, skip encoding it again.
  let keys = typeof secret === "string" ? known.get(secret) : undefined;
  if (!keys) {
    const bytes = secretList(secret).map(secretBytes);
    keys = Promise.all((bytes.every(Boolean) ? (bytes as Uint8Array[]) : invalid()).map(hmacKey));
    if (typeof secret === "string" && secret.length < 4096) {
      if (known.size > 63) known.clear();
      known.set(secret, keys);
    }
  }
  return keys;
}
