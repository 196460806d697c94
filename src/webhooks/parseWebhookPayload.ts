import { checkWebhookPayload } from "../events/compiledValidators.js";
import { safeType, withStack } from "../events/EventValidationError.js";
import { runCompiled, unreadable } from "../events/runCompiled.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import type { ValidationLimits } from "../events/ValidationLimits.js";
import { payloadTypeOf } from "./payloadParts.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * Validates a webhook payload (usually what `verifyWebhook` resolved to) and never throws. On
 * failure, the error has code `ERR_INVALID_WEBHOOK_PAYLOAD` and issues with JSON pointers into the
 * payload (`/content/body`, `/version`). Members the service does not list must be JSON values.
 * `options` bounds the cost of the validation (see `ValidationLimits`).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseWebhookPayload } from "messaging-events/webhooks";
 *
 * const result = safeParseWebhookPayload({ type: "s.message.text", version: 1, content: { body: "Hi" } });
 * if (!result.success) console.log(result.error.issues[0]?.message); // "version must be 2, not 1"
 * ```
 */
export function safeParseWebhookPayload(
  value: unknown,
  options?: ValidationLimits,
): SafeParseResult<WebhookPayload> {
  const found = payloadTypeOf(value);
  if ("success" in found) return found;
  try {
    return runCompiled<WebhookPayload>(
      checkWebhookPayload,
      value,
      // The sender's text: escaped and cut, like every type that is not one of ours.
      found.type === undefined ? undefined : safeType(found.type),
      [],
      0,
      "ERR_INVALID_WEBHOOK_PAYLOAD",
      options,
    );
  } catch (cause) {
    return unreadable("ERR_INVALID_WEBHOOK_PAYLOAD", cause);
  }
}

/**
 * Validates a webhook payload and returns it typed, or throws an `EventValidationError` with code
 * `ERR_INVALID_WEBHOOK_PAYLOAD`. `options` bounds the cost of the validation (see `ValidationLimits`).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @throws {EventValidationError} when the payload does not match the service's description.
 *
 * @example
 * ```ts
 * import { parseWebhookPayload } from "messaging-events/webhooks";
 *
 * const payload = parseWebhookPayload({ type: "s.room.create", version: 2, content: { creatorId: "user-7" } });
 * if (payload.type === "s.room.create") console.log(payload.content.creatorId);
 * ```
 */
export function parseWebhookPayload(value: unknown, options?: ValidationLimits): WebhookPayload {
  const result = safeParseWebhookPayload(value, options);
  if (!result.success) throw withStack(result.error, parseWebhookPayload);
  return result.data;
}
