import { fail, WebhookVerificationError } from "../webhooks/WebhookVerificationError.js";
import { concatBytes, decodeSignature, utf8 } from "./bytes.js";
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
  return value == null ? fail("HEADER_MISSING", `missing "${name}" header`) : String(value);
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
      : body instanceof Uint8Array || body instanceof ArrayBuffer
        ? new Uint8Array(body)
        : typeof body === "object" && body
          ? fail("BODY_PARSED", "body was parsed: pass the raw string or bytes instead")
          : fail("INVALID_INPUT", "body must be a string or bytes");
  const time = parseRfc3339(timestamp) ?? fail("TIMESTAMP_MALFORMED", '"service-timestamp" is not RFC 3339');
  const drift = (Number(now) - time) / 1000;
  if (Number.isNaN(drift) || !((toleranceSeconds as number) >= 0)) {
    fail("INVALID_INPUT", "invalid now or toleranceSeconds");
  }
  if (drift > (toleranceSeconds as number))
    fail("TIMESTAMP_TOO_OLD", `signed ${drift | 0} s ago; tolerance ${toleranceSeconds} s`);
  if (-drift > (toleranceSeconds as number))
    fail("TIMESTAMP_IN_FUTURE", `signed ${-drift | 0} s ahead; tolerance ${toleranceSeconds} s`);
  const mac =
    decodeSignature(signature) ?? fail("SIGNATURE_MALFORMED", '"service-signature" is not hex or base64');
  const signed = concatBytes(utf8(`${timestamp}:`), bytes);
  let authentic = false;
  for (const key of resolvedKeys) {
    authentic ||= await crypto.subtle.verify("HMAC", key, mac, signed);
  }
  if (!authentic) {
    fail("SIGNATURE_MISMATCH", "signature mismatch: body, timestamp or secret differs");
  }
  try {
    return {
      payload: JSON.parse(new TextDecoder(undefined, { fatal: true }).decode(bytes)),
      timestamp: new Date(time),
    };
  } catch {
    return fail("BODY_NOT_JSON", "the signed body is not JSON");
  }
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
