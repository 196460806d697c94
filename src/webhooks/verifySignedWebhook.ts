import { bytesOf, decodeSignature, isDetached, toHex, utf8 } from "../internal/bytes.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { readHeader } from "../internal/headerValue.js";
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
  /** When the signed request leaves the tolerance window: after it, it no longer verifies. */
  readonly expiresAt: Date;
  /** The MAC as 128 lowercase hex digits, whichever accepted spelling the header used. */
  readonly signature: string;
}

/** The signed headers, checked: the `service-timestamp` value (ASCII), the signed time and the MAC. */
export interface SignedHeaders {
  readonly timestamp: string;
  readonly time: number;
  /** The end of the tolerance window, in epoch milliseconds. */
  readonly expiresAt: number;
  readonly mac: Uint8Array<ArrayBuffer>;
}

/** The options of one verification besides the keys and the body. */
export interface HeaderCheck {
  readonly headers?: unknown;
  readonly toleranceMs?: unknown;
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
  return isPlainObject(options) && (!names.length || names.some((name) => Object.hasOwn(options, name)))
    ? options
    : fail("INVALID_INPUT", usage);
}

/**
 * An option the caller set on the object itself: one inherited (from a polluted `Object.prototype`)
 * is not an option, so that it can neither widen the time window nor choose the secret.
 */
export const own = (options: object, name: string): unknown =>
  Object.hasOwn(options, name) ? (options as Record<string, unknown>)[name] : undefined;

/**
 * A signed header, matched case-insensitively, or the error that says it is missing or came more
 * than once: of two values, which one the sender signed is unknown, so neither is taken.
 */
function signedHeader(headers: object, name: string): string {
  const reading = readHeader(headers, name) ?? fail("HEADER_MISSING", `no "${name}" header`);
  if (reading.repeated)
    fail("HEADER_REPEATED", `the "${name}" header came more than once: a webhook carries one of each`);
  return reading.value;
}

/**
 * A numeric option: `undefined` gives `fallback`; anything else must be a number, finite and ≥ 0
 * (and whole with `integer`), or it is the error that names the option. Only the checked number is
 * ever echoed, so an object's `toString` never reaches a message.
 */
export function numberOption(name: string, value: unknown, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  const wanted = integer ? "a whole number ≥ 0" : "a finite number ≥ 0";
  if (typeof value !== "number")
    return fail("INVALID_INPUT", `${name} must be ${wanted}, not ${kindOf(value)}`);
  if (!(Number.isFinite(value) && value >= 0 && (!integer || Number.isInteger(value))))
    fail("INVALID_INPUT", `${name} must be ${wanted}, not ${value}`);
  return value;
}

/** The current time from `now`: epoch milliseconds, or a valid `Date` of any realm, read once. */
function clockOf(now: unknown): number {
  if (now === undefined) return Date.now();
  let time: unknown = now;
  if (typeof now !== "number") {
    try {
      // The built-in getter reads the internal slot: no valueOf or look-alike is called.
      time = Date.prototype.getTime.call(now);
    } catch {
      time = undefined;
    }
  }
  return typeof time === "number" && Number.isFinite(time)
    ? time
    : fail(
        "INVALID_INPUT",
        `now must be a valid Date or epoch milliseconds (Date.now()), not ${typeof now === "number" ? now : kindOf(now)}`,
      );
}

/**
 * Checks the options and headers that come before the body: `now` and `toleranceMs`, both
 * headers, the timestamp within the tolerance and the signature's spelling. Reads nothing of the
 * body, so a request refused here is never read.
 */
export function checkSignedHeaders(check: HeaderCheck): SignedHeaders {
  const headers = own(check, "headers");
  const clock = clockOf(own(check, "now"));
  const tolerance = numberOption("toleranceMs", own(check, "toleranceMs"), 300_000);
  if (typeof headers !== "object" || !headers) fail("INVALID_INPUT", "headers must be Headers or a record");
  const timestamp = signedHeader(headers as object, "service-timestamp");
  const signature = signedHeader(headers as object, "service-signature");
  const time =
    parseRfc3339(timestamp) ??
    fail("TIMESTAMP_MALFORMED", '"service-timestamp" is not an RFC 3339 date-time');
  const drift = clock - time;
  if (Math.abs(drift) > tolerance) {
    fail(
      drift > 0 ? "TIMESTAMP_TOO_OLD" : "TIMESTAMP_IN_FUTURE",
      `signed ${drift > 0 ? `${seconds(drift)} ago` : `${seconds(-drift)} in the future`}, outside the tolerance of ${seconds(tolerance)} (toleranceMs ${tolerance})${
        clock < 1e11 ? "; now is in milliseconds (Date.now())" : ""
      }`,
    );
  }
  const mac =
    decodeSignature(signature) ??
    fail(
      "SIGNATURE_MALFORMED",
      `"service-signature" (${signature.length} characters) is not 128 hex digits, 88 of base64 or 86 of base64url`,
    );
  return { timestamp, time, expiresAt: time + tolerance, mac };
}

/** A duration in milliseconds as seconds, to the millisecond: `"301.5 s"`. */
const seconds = (ms: number) => `${Math.round(ms) / 1000} s`;

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
  if (isDetached(body))
    fail(
      "INVALID_INPUT",
      "body is a detached ArrayBuffer (its memory was transferred, by postMessage or structuredClone): pass the bytes before transferring them, or a copy",
    );
  if (body === undefined || (isPlainObject(body) && !Object.keys(body).length))
    fail(
      "INVALID_INPUT",
      'the raw body is missing: with Express use express.raw({ type: "*/*" }) on this route; with NestJS create the app with { rawBody: true }',
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
  return {
    payload,
    timestamp: new Date(signed.time),
    expiresAt: new Date(signed.expiresAt),
    signature: toHex(signed.mac),
  };
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
  const body = bodyBytes(own(input, "body"));
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
