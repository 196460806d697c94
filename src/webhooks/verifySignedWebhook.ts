import { bytesOf, decodeSignature, toHex, utf8 } from "../internal/bytes.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { parseRfc3339 } from "../internal/rfc3339.js";
import { fail, WebhookVerificationError } from "./WebhookVerificationError.js";

/**
 * What a verification resolves to before the payload is validated: the parsed JSON, the signed
 * time and the signature as lowercase hex of the MAC (one value per MAC, whatever its spelling in
 * the header, to key replays on).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { VerifiedWebhookSignature } from "messaging-events/webhooks";
 *
 * const seen = new Set<string>();
 * const isReplay = (verified: VerifiedWebhookSignature) => seen.has(verified.signature);
 * ```
 */
export interface VerifiedWebhookSignature {
  /** The body parsed as JSON: authentic, but not validated. */
  readonly payload: unknown;
  /** The time in `service-timestamp`. */
  readonly timestamp: Date;
  /** The MAC as 128 lowercase hex digits, whichever accepted spelling the header used. */
  readonly signature: string;
}

/** The signed headers, checked: the `service-timestamp` value (ASCII), the signed time and the MAC. */
export interface SignedHeaders {
  readonly timestamp: string;
  readonly time: number;
  readonly mac: Uint8Array<ArrayBuffer>;
}

/** The options of one verification besides the keys and the body. */
export interface HeaderCheck {
  readonly headers?: unknown;
  readonly toleranceSeconds?: unknown;
  readonly now?: unknown;
}

/**
 * The options object, or the error that shows the call: `usage` when the options are not one plain
 * object with at least one of `names`, if any (positional arguments, a secret in place of the
 * options).
 */
export function optionsObject(
  options: unknown,
  usage: string,
  names: readonly string[] = ["body", "headers", "secret"],
): Record<string, unknown> {
  return isPlainObject(options) && (!names.length || names.some((name) => name in options))
    ? options
    : fail("INVALID_INPUT", usage);
}

/** A header, matched case-insensitively, or the error that says it is missing. */
function readHeader(headers: object, name: string): string {
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === "function") {
    value = (headers as { get(name: string): unknown }).get(name);
  } else {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === name) value = (headers as Record<string, unknown>)[key];
    }
  }
  // Repeated headers (an array, or a joined string) can only fail the format checks later.
  return value == null ? fail("HEADER_MISSING", `no "${name}" header`) : String(value);
}

/**
 * Checks the options and headers that come before the body: `now` and `toleranceSeconds`, both
 * headers, the timestamp within the tolerance and the signature's spelling. Reads nothing of the
 * body, so a request refused here is never read.
 */
export function checkSignedHeaders(check: HeaderCheck): SignedHeaders {
  const { headers, toleranceSeconds = 300, now } = check;
  const clock = now === undefined ? Date.now() : typeof now === "object" && now ? Number(now) : now;
  if (!Number.isFinite(clock)) fail("INVALID_INPUT", "now must be a Date or epoch milliseconds (Date.now())");
  if (!((toleranceSeconds as number) >= 0)) fail("INVALID_INPUT", "toleranceSeconds must be a number ≥ 0");
  if (typeof headers !== "object" || !headers) fail("INVALID_INPUT", "headers must be Headers or a record");
  const timestamp = readHeader(headers as object, "service-timestamp");
  const signature = readHeader(headers as object, "service-signature");
  const time =
    parseRfc3339(timestamp) ??
    fail("TIMESTAMP_MALFORMED", '"service-timestamp" is not an RFC 3339 date-time');
  const drift = ((clock as number) - time) / 1000;
  if (Math.abs(drift) > (toleranceSeconds as number)) {
    fail(
      drift > 0 ? "TIMESTAMP_TOO_OLD" : "TIMESTAMP_IN_FUTURE",
      `signed ${drift > 0 ? `${drift} s ago` : `${-drift} s in the future`}, tolerance ${toleranceSeconds} s${
        (clock as number) < 1e11 ? "; now is in milliseconds (Date.now())" : ""
      }`,
    );
  }
  const mac =
    decodeSignature(signature) ??
    fail(
      "SIGNATURE_MALFORMED",
      `"service-signature" (${signature.length} characters) is not 128 hex digits, 88 of base64 or 86 of base64url`,
    );
  return { timestamp, time, mac };
}

/** A short name for what a value is: a type or class name, never its content. */
export const kindOf = (value: unknown) => {
  const name = describeValue(value);
  return withArticle(/^\w{1,30}$/.test(name) ? name : "object");
};

/**
 * The bytes of a raw body, or the error that says what was passed instead and what to do. A
 * string is its UTF-8 bytes; bytes are taken exactly (see `bytesOf`).
 */
export function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === "string") return utf8(body);
  const bytes = bytesOf(body);
  if (bytes) return bytes;
  if (body === undefined || (isPlainObject(body) && !Object.keys(body).length))
    fail(
      "INVALID_INPUT",
      'the raw body is missing: with Express use express.raw({ type: "*/*" }) on this route',
    );
  const found = kindOf(body);
  if (
    typeof (body as Body | null)?.arrayBuffer === "function" ||
    typeof (body as ReadableStream | null)?.getReader === "function"
  )
    fail("INVALID_INPUT", `body is ${found}: pass await request.arrayBuffer(), or use verifyWebhookRequest`);
  return isPlainObject(body) || Array.isArray(body)
    ? fail(
        "BODY_PARSED",
        `body is ${found} parsed from JSON: pass the raw body (express.raw, not express.json)`,
      )
    : fail("INVALID_INPUT", `body is ${found}, not a string or bytes`);
}

let decoder: TextDecoder | undefined;

/**
 * Verifies the HMAC-SHA-512 of `<service-timestamp>:<raw body>` under every key with
 * `crypto.subtle.verify` (constant time) and only when one matches decodes the body as UTF-8 and
 * parses it: nothing of an unauthenticated body is decoded or parsed, so a forged body costs the
 * HMAC and no more.
 */
export async function verifySignedBody(
  signed: SignedHeaders,
  keys: Promise<readonly CryptoKey[]>,
  body: Uint8Array,
): Promise<VerifiedWebhookSignature> {
  // One copy, taken now: the caller's buffer may change while Web Crypto works, and it may be shared.
  const { timestamp } = signed;
  const start = timestamp.length + 1;
  const data = new Uint8Array(start + body.length);
  // The timestamp passed the RFC 3339 check, so it is ASCII: one byte per character.
  for (let i = 0; i < timestamp.length; i++) data[i] = timestamp.charCodeAt(i);
  data[start - 1] = 58; // ":"
  data.set(body, start);
  const list = await keys;
  const verify = (key: CryptoKey) => crypto.subtle.verify("HMAC", key, signed.mac, data);
  // Every key is tried (at once, on Web Crypto's own time); one key, the usual case, without Promise.all.
  if (!(list.length === 1 ? await verify(list[0]!) : (await Promise.all(list.map(verify))).includes(true)))
    fail("SIGNATURE_MISMATCH", "signature mismatch: wrong secret, or altered");
  let payload: unknown;
  try {
    decoder ??= new TextDecoder("utf-8", { fatal: true });
    payload = JSON.parse(decoder.decode(data.subarray(start)));
  } catch {
    fail("BODY_NOT_JSON", "the body is authentic but not UTF-8 JSON");
  }
  return { payload, timestamp: new Date(signed.time), signature: toHex(signed.mac) };
}

/**
 * Verifies a raw body and its headers: the body's kind first (a configuration error whatever the
 * request), then the headers, then the HMAC, then the JSON. May throw before it returns: call it
 * from an async function.
 */
export function verifySignedWebhook(
  input: Record<string, unknown>,
  keys: Promise<readonly CryptoKey[]>,
): Promise<VerifiedWebhookSignature> {
  const body = bodyBytes(input.body);
  return verifySignedBody(checkSignedHeaders(input), keys, body);
}

/** Turns anything a verification threw into a `WebhookVerificationError`, kept as the `cause` if unexpected. */
export function asVerificationError(cause: unknown): WebhookVerificationError {
  try {
    if (cause instanceof WebhookVerificationError) return cause;
  } catch {}
  return new WebhookVerificationError(
    "ERR_WEBHOOK_INVALID_INPUT",
    "could not verify: an unexpected failure (see cause)",
    {
      cause,
    },
  );
}
