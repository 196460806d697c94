import { hmacKeys } from "./hmacKeys.js";
import type { VerifyWebhookOptions } from "./VerifyWebhookOptions.js";
import {
  asVerificationError,
  optionsObject,
  own,
  type VerifiedWebhookSignature,
  verifySignedWebhook,
} from "./verifySignedWebhook.js";
import type { WebhookVerificationError } from "./WebhookVerificationError.js";

export type { VerifiedWebhookSignature };

/**
 * Checks only the signature of a webhook, without Zod (see the bundle-size table in docs/performance.md), and resolves to
 * `{ payload, timestamp, signature }` where `payload` is the body parsed as JSON, typed `unknown`:
 * authentic, but NOT validated. Most receivers want {@link verifyWebhook}, which also validates the
 * payload and types it. Checks that both headers are there, that `service-timestamp` is an RFC 3339
 * date-time within `toleranceMs` of now (5 minutes by default, both ways), and that
 * `service-signature` (lowercase or uppercase hex, base64 or base64url) is the HMAC-SHA-512 of
 * `<service-timestamp>:<raw body>` under one of the secrets, with `crypto.subtle.verify`; only then
 * does it decode and parse the body. Rejects with a {@link WebhookVerificationError}. Keys are
 * imported once per secret and cached. It reads a body of any size: cap it before (as
 * `verifyWebhookRequest` does).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhookSignature } from "messaging-events/webhooks";
 *
 * const { body, headers } = await signWebhook({ payload: { type: "s.room.close", version: 2, content: {} }, secret: "s3cr3t" });
 * const { payload, signature } = await verifyWebhookSignature({ body, headers, secret: "s3cr3t" });
 * console.log(payload, signature.length); // { type: "s.room.close", version: 2, content: {} } 128
 * ```
 */
export async function verifyWebhookSignature(
  options: VerifyWebhookOptions,
): Promise<VerifiedWebhookSignature> {
  const input = optionsObject(
    options,
    "pass one options object: verifyWebhookSignature({ body, headers, secret })",
  );
  return verifySignedWebhook(input, hmacKeys(own(input, "secret")));
}

/**
 * The result of {@link safeVerifyWebhookSignature}: the parsed (unvalidated) JSON, the signed time
 * and the normalised signature, or the error that says why the webhook was not accepted.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { SafeVerifyWebhookSignatureResult } from "messaging-events/webhooks";
 *
 * function statusOf(result: SafeVerifyWebhookSignatureResult): number {
 *   return result.success ? 204 : result.error.status;
 * }
 * ```
 */
export type SafeVerifyWebhookSignatureResult =
  | ({
      readonly success: true;
      /** The body parsed as JSON: authentic, but not validated. */
      readonly data: unknown;
      readonly error?: undefined;
    } & Omit<VerifiedWebhookSignature, "payload">)
  | {
      readonly success: false;
      readonly error: WebhookVerificationError;
      readonly data?: undefined;
      readonly timestamp?: undefined;
      readonly signature?: undefined;
    };

/**
 * Like {@link verifyWebhookSignature}, but resolves to `{ success: true, data, timestamp, expiresAt, signature }`
 * or `{ success: false, error }` and never rejects, whatever it is given. The payload is NOT validated:
 * most receivers want {@link safeVerifyWebhook}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeVerifyWebhookSignature } from "messaging-events/webhooks";
 *
 * const result = await safeVerifyWebhookSignature({ body: "{}", headers: new Headers(), secret: "s3cr3t" });
 * if (!result.success) console.log(result.error.code, result.error.message); // ERR_WEBHOOK_HEADER_MISSING …
 * ```
 */
export async function safeVerifyWebhookSignature(
  options: VerifyWebhookOptions,
): Promise<SafeVerifyWebhookSignatureResult> {
  try {
    const { payload, ...verified } = await verifyWebhookSignature(options);
    return { success: true, data: payload, ...verified };
  } catch (cause) {
    return { success: false, error: asVerificationError(cause) };
  }
}
