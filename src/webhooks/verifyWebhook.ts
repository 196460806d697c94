import { hmacKeys } from "./hmacKeys.js";
import { safeParseWebhookPayload } from "./parseWebhookPayload.js";
import type { VerifyWebhookOptions } from "./VerifyWebhookOptions.js";
import {
  asVerificationError,
  optionsObject,
  own,
  type VerifiedWebhookSignature,
  verifySignedWebhook,
} from "./verifySignedWebhook.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * The result of {@link safeVerifyWebhook} and of every other `safeVerify…`: the typed payload, the
 * signed time, the end of its window and the signature as lowercase hex of the MAC, or the error.
 * The error is always a `WebhookVerificationError`, so its `status` (the HTTP status to answer),
 * `kind` and `code` read without a guard; an authentic payload that is not one the service
 * describes is `ERR_WEBHOOK_PAYLOAD_INVALID` (422), with its `issues`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { SafeVerifyWebhookResult } from "messaging-events/webhooks";
 *
 * const statusOf = (result: SafeVerifyWebhookResult): number => (result.success ? 204 : result.error.status);
 * ```
 */
export type SafeVerifyWebhookResult =
  | {
      readonly success: true;
      /** The validated payload: narrow it on `type`. */
      readonly data: WebhookPayload;
      /** The time in `service-timestamp`. */
      readonly timestamp: Date;
      /** When this signed request leaves the tolerance window: after it, it no longer verifies. */
      readonly expiresAt: Date;
      /** The MAC as 128 lowercase hex digits, whichever accepted spelling the header used. */
      readonly signature: string;
      readonly error?: undefined;
    }
  | {
      readonly success: false;
      readonly error: WebhookVerificationError;
      readonly data?: undefined;
      readonly timestamp?: undefined;
      readonly expiresAt?: undefined;
      readonly signature?: undefined;
    };

/** @internal Validates what a verification resolved to; the result, never a rejection. */
export async function validateVerified(
  verification: () => Promise<VerifiedWebhookSignature>,
): Promise<SafeVerifyWebhookResult> {
  let verified: VerifiedWebhookSignature;
  try {
    verified = await verification();
  } catch (cause) {
    return { success: false, error: asVerificationError(cause) };
  }
  const parsed = safeParseWebhookPayload(verified.payload);
  if (!parsed.success) {
    const { error } = parsed;
    return {
      success: false,
      error: new WebhookVerificationError(
        "ERR_WEBHOOK_PAYLOAD_INVALID",
        `the webhook is authentic, but not a payload the service describes: ${error.message}`,
        { cause: error, issues: error.issues },
      ),
    };
  }
  const { timestamp, expiresAt, signature } = verified;
  return { success: true, data: parsed.data, timestamp, expiresAt, signature };
}

/** @internal The payload of a successful result, or its error thrown. */
export function payloadOf(result: SafeVerifyWebhookResult): WebhookPayload {
  if (!result.success) throw result.error;
  return result.data;
}

const usage = "pass one options object: verifyWebhook({ body, headers, secret })";

/**
 * Like {@link verifyWebhook}, but resolves to `{ success: true, data, timestamp, expiresAt, signature }`
 * or `{ success: false, error }` and never rejects, whatever it is given. `signature` is the MAC as
 * lowercase hex: the same value for every accepted spelling, to de-duplicate replays inside the
 * time window.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeVerifyWebhook, signWebhook } from "messaging-events/webhooks";
 *
 * const signed = await signWebhook({ payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" } }, secret: "s3cr3t" });
 * const result = await safeVerifyWebhook({ ...signed, secret: "s3cr3t" });
 * if (result.success && result.data.type === "s.room.create") console.log(result.data.content.creatorId);
 * if (!result.success) console.log(result.error.code, result.error.message);
 * ```
 */
export function safeVerifyWebhook(options: VerifyWebhookOptions): Promise<SafeVerifyWebhookResult> {
  return validateVerified(async () => {
    const input = optionsObject(options, usage);
    return verifySignedWebhook(input, hmacKeys(own(input, "secret")));
  });
}

/**
 * Verifies a signed webhook and validates its payload: resolves to the typed
 * {@link WebhookPayload}, which narrows on `type`. It checks that both headers are there, that
 * `service-timestamp` is an RFC 3339 date-time within `toleranceMs` of now (5 minutes by default,
 * both ways), that `service-signature` (lowercase or uppercase hex, base64 or base64url) is the
 * HMAC-SHA-512 of `<service-timestamp>:<raw body>` under one of the secrets (with
 * `crypto.subtle.verify`), and only then decodes and parses the body and validates it. Rejects with
 * a `WebhookVerificationError` whose `status` is the HTTP status to answer: 500 for a configuration
 * error, 401 for a refused request, 413 or 408 for a body too large or not read to the end, 422
 * (`ERR_WEBHOOK_PAYLOAD_INVALID`, with the `issues`) for an authentic payload that is not one the
 * service describes. Keys are imported once per secret and
 * cached. For a Fetch `Request`, use `verifyWebhookRequest`, which caps the body's size.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from "messaging-events/webhooks";
 *
 * const { body, headers } = await signWebhook({
 *   payload: { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-42" },
 *   secret: "s3cr3t",
 * });
 * const payload = await verifyWebhook({ body, headers, secret: "s3cr3t" });
 * if (payload.type === "s.message.text") console.log(payload.content.body, payload.roomId);
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookPayload> {
  return payloadOf(await safeVerifyWebhook(options));
}
