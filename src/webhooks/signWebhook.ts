import { concatBytes, toBase64, toBase64Url, toHex, utf8 } from "../internal/bytes.js";
import { parseRfc3339 } from "../internal/rfc3339.js";
import { hmacKeys } from "./hmacKeys.js";
import type { WebhookSecret } from "./WebhookSecret.js";
import { WebhookSigningError } from "./WebhookSigningError.js";

/**
 * What {@link signWebhook} needs.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { SignWebhookOptions } from "messaging-events/webhooks";
 *
 * const options: SignWebhookOptions = {
 *   payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" }, roomId: "room-42" },
 *   secret: "s3cr3t",
 *   timestamp: new Date("2026-11-22T18:00:00Z"),
 * };
 * ```
 */
export interface SignWebhookOptions {
  /** The payload: an object is serialised with `JSON.stringify`; a string is sent as it is. */
  readonly payload: unknown;
  /**
   * The signing secret: a string (its UTF-8 bytes) or the key bytes; or a list, newest first, of
   * which the first signs (the same list a verifier takes during a rotation).
   */
  readonly secret: WebhookSecret | readonly WebhookSecret[];
  /**
   * The signing time: a `Date`, epoch milliseconds, or an RFC 3339 string used as it is.
   * @default new Date()
   */
  readonly timestamp?: Date | number | string;
  /**
   * How to write the signature: unpadded base64url (86 characters, `-` and `_`: the service's own
   * spelling), lowercase hex (128 characters) or padded base64 (88 characters).
   * @default "base64url"
   */
  readonly encoding?: WebhookSignatureEncoding;
}

/**
 * How a signature is written: `"base64url"` (unpadded, 86 characters: the service's own spelling),
 * `"hex"` (lowercase, 128 characters) or `"base64"` (padded, 88 characters). The verifier accepts
 * these and uppercase hex.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookSignatureEncoding } from "messaging-events/webhooks";
 *
 * const encoding: WebhookSignatureEncoding = "hex";
 * ```
 */
export type WebhookSignatureEncoding = "base64url" | "hex" | "base64";

const encoders = { base64url: toBase64Url, hex: toHex, base64: toBase64 };

/**
 * A signed webhook, ready to send: the exact body and the headers (`content-type`,
 * `service-timestamp`, `service-signature`).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { type SignedWebhook, signWebhook } from "messaging-events/webhooks";
 *
 * const signed: SignedWebhook = await signWebhook({ payload: "{}", secret: "s3cr3t" });
 * console.log(signed.headers["service-signature"].length); // 86
 * ```
 */
export interface SignedWebhook {
  /** The body to send, byte for byte what was signed. */
  readonly body: string;
  /** `content-type: application/json`, `service-timestamp` and `service-signature`. */
  readonly headers: {
    readonly "content-type": "application/json";
    readonly "service-timestamp": string;
    readonly "service-signature": string;
  };
}

/** The body to sign: a string as it is, anything else through `JSON.stringify`. */
function bodyOf(payload: unknown): string {
  if (typeof payload === "string") return payload;
  let body: unknown;
  try {
    body = JSON.stringify(payload);
  } catch (cause) {
    throw new WebhookSigningError(
      "signWebhook: the payload could not be serialised as JSON (see cause): use JSON values only",
      { cause },
    );
  }
  if (typeof body !== "string")
    throw new WebhookSigningError("signWebhook: the payload must be a string or a JSON-serialisable value");
  return body;
}

const badTimestamp = () =>
  new WebhookSigningError(
    "signWebhook: the timestamp must be a valid Date, epoch milliseconds or an RFC 3339 string",
  );

/** The `service-timestamp` to send: an RFC 3339 string as it is, a `Date` or epoch ms as ISO 8601. */
function timestampOf(timestamp: unknown): string {
  if (timestamp === undefined) return new Date().toISOString();
  if (typeof timestamp === "string") {
    if (parseRfc3339(timestamp) === undefined) throw badTimestamp();
    return timestamp;
  }
  let time: unknown = timestamp;
  if (typeof timestamp !== "number") {
    try {
      // The built-in getter reads a Date's internal slot (of any realm), never a valueOf.
      time = Date.prototype.getTime.call(timestamp);
    } catch {
      throw badTimestamp();
    }
  }
  const date = new Date(time as number);
  // Past the year 9999, toISOString writes a six-digit year that RFC 3339 has no room for.
  const text = Number.isNaN(date.getTime()) ? "" : date.toISOString();
  if (parseRfc3339(text) === undefined) throw badTimestamp();
  return text;
}

/** @internal Signs with an imported key: the HMAC-SHA-512 of `<timestamp>:<body>`. */
export async function signWithKey(
  key: CryptoKey,
  options: Omit<SignWebhookOptions, "secret">,
  defaultEncoding: unknown = "base64url",
): Promise<SignedWebhook> {
  if (typeof options !== "object" || options === null)
    throw new WebhookSigningError("signWebhook: the options must be an object");
  let payload: unknown;
  let timestamp: unknown;
  let encoding: unknown;
  try {
    ({ payload, timestamp, encoding = defaultEncoding } = options);
  } catch (cause) {
    throw new WebhookSigningError("signWebhook: the options could not be read (see cause)", { cause });
  }
  const body = bodyOf(payload);
  const time = timestampOf(timestamp);
  const encode =
    typeof encoding === "string" && Object.hasOwn(encoders, encoding)
      ? encoders[encoding as WebhookSignatureEncoding]
      : undefined;
  if (!encode) throw new WebhookSigningError('signWebhook: encoding must be "base64url", "hex" or "base64"');
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, concatBytes(utf8(`${time}:`), utf8(body))),
  );
  return {
    body,
    headers: {
      "content-type": "application/json",
      "service-timestamp": time,
      "service-signature": encode(mac),
    },
  };
}

/** @internal The key of a secret for signing, or a `WebhookSigningError` that says what is wrong with it. */
export function signingKey(secret: unknown): Promise<CryptoKey> {
  let newest: unknown = secret;
  try {
    // A list, newest first: the first signs. Its length is read before its first entry.
    if (Array.isArray(secret)) {
      if ((secret as unknown[]).length === 0) throw new Error("an empty list");
      newest = (secret as unknown[])[0];
    }
    if (Array.isArray(newest)) throw new Error("a list in a list");
  } catch {
    // A revoked proxy, or a list with nothing to sign with.
    return Promise.reject(
      new WebhookSigningError(
        "signWebhook: the secret must be a non-empty string or bytes, or a list of them",
      ),
    );
  }
  try {
    return hmacKeys(newest).then(([key]) => key!);
  } catch {
    return Promise.reject(
      new WebhookSigningError("signWebhook: the secret must be a non-empty string or bytes"),
    );
  }
}

/**
 * Signs a webhook the way the service does: the HMAC-SHA-512 of `<service-timestamp>:<body>` with
 * the secret, written as unpadded base64url as the service writes it (lowercase hex or padded
 * base64 on request), the timestamp written by `Date.prototype.toISOString()`. Resolves to the body and headers to send.
 * Rejects with a `WebhookSigningError` (a `TypeError` with code `ERR_WEBHOOK_SIGNING_INPUT`) for an
 * empty secret, an invalid timestamp, an unknown encoding or a payload that JSON cannot carry.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook } from "messaging-events/webhooks";
 *
 * const { body, headers } = await signWebhook({
 *   payload: { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-42" },
 *   secret: "s3cr3t",
 * });
 * const request = new Request("https://example.com/hooks/messaging", { method: "POST", headers, body });
 * ```
 */
export async function signWebhook(options: SignWebhookOptions): Promise<SignedWebhook> {
  if (typeof options !== "object" || options === null)
    throw new WebhookSigningError("signWebhook: the options must be an object");
  let secret: unknown;
  try {
    secret = options.secret;
  } catch (cause) {
    throw new WebhookSigningError("signWebhook: the options could not be read (see cause)", { cause });
  }
  return signWithKey(await signingKey(secret), options);
}
