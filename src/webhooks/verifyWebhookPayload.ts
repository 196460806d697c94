import type { EventValidationError } from "../events/EventValidationError.js";
import { parseWebhookPayload, safeParseWebhookPayload } from "./parseWebhookPayload.js";
import { safeVerifyWebhook, type VerifyWebhookOptions, verifyWebhook } from "./verifyWebhook.js";
import type { WebhookVerificationError } from "./WebhookVerificationError.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * Verifies a signed webhook and validates its payload in one call: resolves to the typed
 * {@link WebhookPayload}, or rejects with a `WebhookVerificationError` (not authentic) or an
 * `EventValidationError` with code `ERR_INVALID_WEBHOOK_PAYLOAD` (authentic, but not a payload the
 * spec describes).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhookPayload } from "messaging-events/webhooks";
 *
 * const signed = await signWebhook({
 *   payload: { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-42" },
 *   secret: "s3cr3t",
 * });
 * const payload = await verifyWebhookPayload({ ...signed, secret: "s3cr3t" });
 * if (payload.type === "s.message.text") console.log(payload.content.body, payload.roomId);
 * ```
 */
export async function verifyWebhookPayload(options: VerifyWebhookOptions): Promise<WebhookPayload> {
  return parseWebhookPayload(await verifyWebhook(options));
}

/**
 * The result of {@link safeVerifyWebhookPayload}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { SafeVerifyWebhookPayloadResult } from "messaging-events/webhooks";
 *
 * function status(result: SafeVerifyWebhookPayloadResult): number {
 *   return result.ok ? 204 : result.error.name === "WebhookVerificationError" ? 401 : 422;
 * }
 * ```
 */
export type SafeVerifyWebhookPayloadResult =
  | {
      readonly ok: true;
      readonly payload: WebhookPayload;
      readonly timestamp: Date;
      readonly error?: undefined;
    }
  | {
      readonly ok: false;
      readonly error: WebhookVerificationError | EventValidationError;
      readonly payload?: undefined;
      readonly timestamp?: undefined;
    };

/**
 * Like {@link verifyWebhookPayload}, but resolves to `{ ok: true, payload, timestamp }` or
 * `{ ok: false, error }` and never rejects.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeVerifyWebhookPayload } from "messaging-events/webhooks";
 *
 * const result = await safeVerifyWebhookPayload({ body: "{}", headers: {}, secret: "s3cr3t" });
 * if (!result.ok) console.log(result.error.code); // "ERR_WEBHOOK_HEADER_MISSING"
 * ```
 */
export async function safeVerifyWebhookPayload(
  options: VerifyWebhookOptions,
): Promise<SafeVerifyWebhookPayloadResult> {
  const verified = await safeVerifyWebhook(options);
  if (!verified.ok) return verified;
  const parsed = safeParseWebhookPayload(verified.payload);
  if (!parsed.success) return { ok: false, error: parsed.error };
  return { ok: true, payload: parsed.data, timestamp: verified.timestamp };
}
