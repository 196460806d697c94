import { fail, WebhookVerificationError } from "../webhooks/WebhookVerificationError.js";
import { decodeSignature, utf8 } from "./bytes.js";
import { parseRfc3339 } from "./rfc3339.js";

/**
 * Request headers as users have them: a Fetch `Headers`, Node's `IncomingHttpHeaders` (string or
 * string[] values), or a plain record. Names are matched case-insensitively.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookHeaders } from "messaging-events/webhooks";
 *
 * const headers: WebhookHeaders = { "Service-Timestamp": "2026-11-22T18:00:00.000Z", "Service-Signature": "…" };
 * ```
 */
export type WebhookHeaders =
  | {
      /** The value of a header, or `null` when it is absent (Fetch `Headers.get`). */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/**
 * The raw request body, exactly as received: a string, a `Uint8Array` (Node's `Buffer` is one) or an
 * `ArrayBuffer`. Never a parsed object: the signature covers the bytes.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookBody } from "messaging-events/webhooks";
 *
 * const body: WebhookBody = new TextEncoder().encode('{"type":"s.room.close","version":2,"content":{}}');
 * ```
 */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * The result of `safeVerifyWebhook`: the parsed payload and the signed time, or the error that says
 * why the webhook was not accepted.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { SafeVerifyWebhookResult } from "messaging-events/webhooks";
 *
 * function statusOf(result: SafeVerifyWebhookResult): number {
 *   return result.ok ? 204 : 401;
 * }
 * ```
 */
export type SafeVerifyWebhookResult<T = unknown> =
  | { readonly ok: true; readonly payload: T; readonly timestamp: Date; readonly error?: undefined }
  | {
      readonly ok: false;
      readonly error: WebhookVerificationError;
      readonly payload?: undefined;
      readonly timestamp?: undefined;
    };

/** What a verification reads besides the keys. */
export interface WebhookCheck {
  readonly body: unknown;
  readonly headers: unknown;
  readonly toleranceSeconds?: unknown;
  readonly now?: unknown;
}

/** A header, matched case-insensitively, or the error that says it is missing. */
function readHeader(headers: unknown, name: string): string {
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === "function") {
    value = (headers as { get(name: string): unknown }).get(name);
  } else {
    for (const key of Object.keys(headers as object)) {
      if (key.toLowerCase() === name) value = (headers as Record<string, unknown>)[key];
    }
  }
  // Repeated headers (an array, or Node's joined string) can only fail the format checks later.
  return value == null ? fail("HEADER_MISSING", `no "${name}" header`) : String(value);
}

/**
 * Verifies a signed webhook (spec 6.3, rulings 17 to 20) against imported keys: the secret first,
 * then both headers, the timestamp within the tolerance, the HMAC-SHA-512 of
 * `<service-timestamp>:<raw body>` through `crypto.subtle.verify` (constant time), and only then
 * the JSON. Throws {@link WebhookVerificationError}.
 */
export async function verifySignedWebhook(
  check: WebhookCheck,
  keys: Promise<readonly CryptoKey[]>,
): Promise<{ payload: unknown; timestamp: Date }> {
  const resolvedKeys = await keys;
  const { body, headers, toleranceSeconds = 300, now = Date.now() } = check;
  const fields = Object(headers);
  const timestamp = readHeader(fields, "service-timestamp");
  const signature = readHeader(fields, "service-signature");
  const bytes =
    typeof body === "string"
      ? utf8(body)
      : ArrayBuffer.isView(body) || body instanceof ArrayBuffer
        ? // A Buffer or a Uint8Array, also from another realm (a test runner's vm), or an ArrayBuffer.
          new Uint8Array(body as Uint8Array)
        : typeof body === "object" && body
          ? fail("BODY_PARSED", "pass the raw body, not parsed JSON")
          : fail("INVALID_INPUT", "body is not a string or bytes");
  const time = parseRfc3339(timestamp) ?? fail("TIMESTAMP_MALFORMED", '"service-timestamp" is not RFC 3339');
  const drift = (+(now as number) - time) / 1000;
  if (Number.isNaN(drift) || !((toleranceSeconds as number) >= 0)) {
    fail("INVALID_INPUT", "bad now or toleranceSeconds");
  }
  if (Math.abs(drift) > (toleranceSeconds as number)) {
    // Positive: signed that many seconds ago; negative: dated that far ahead.
    fail(
      drift > 0 ? "TIMESTAMP_TOO_OLD" : "TIMESTAMP_IN_FUTURE",
      `signed ${drift} s ago, tolerance ${toleranceSeconds} s`,
    );
  }
  const mac =
    decodeSignature(signature) ?? fail("SIGNATURE_MALFORMED", '"service-signature" is not hex or base64');
  // The timestamp passed the RFC 3339 check, so it is ASCII: as many bytes as characters.
  const signed = new Uint8Array(timestamp.length + 1 + bytes.length);
  signed.set(utf8(`${timestamp}:`));
  signed.set(bytes, timestamp.length + 1);
  // Every key is tried at once, on Web Crypto's own time; meanwhile the body is parsed here. The
  // parse is only a candidate: it is returned, or its failure reported, only if a key matches.
  const verdicts = Promise.all(resolvedKeys.map((key) => crypto.subtle.verify("HMAC", key, mac, signed)));
  let payload: unknown = verdicts;
  try {
    payload = JSON.parse(new TextDecoder().decode(bytes));
  } catch {}
  if (!(await verdicts).includes(true))
    fail("SIGNATURE_MISMATCH", "signature mismatch: wrong secret or altered");
  // `verdicts` stands for "not parsed": no JSON text parses to that object.
  return payload === verdicts
    ? fail("BODY_NOT_JSON", "body is not JSON")
    : { payload, timestamp: new Date(time) };
}

/** Turns anything a verification threw into a result; never rejects. */
export async function settle<T>(
  work: () => Promise<{ payload: T; timestamp: Date }>,
): Promise<SafeVerifyWebhookResult<T>> {
  try {
    return { ok: true, ...(await work()) };
  } catch (cause) {
    return {
      ok: false,
      error:
        cause instanceof WebhookVerificationError
          ? cause
          : new WebhookVerificationError(
              "ERR_WEBHOOK_INVALID_INPUT",
              `could not verify: ${(cause as Error)?.message ?? cause}`,
            ),
    };
  }
}
