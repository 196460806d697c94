import { runContentSchema } from "../events/runContentSchema.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import type { ValidationLimits } from "../events/ValidationLimits.js";
import { payloadTypeOf } from "./payloadParts.js";
import { type WebhookPayload, webhookPayloadSchema } from "./webhookPayloadSchema.js";

/**
 * @internal `safeParseWebhookPayload` as Zod interprets the schema: the reference the compiled
 * validator is tested against.
 */
export function interpretWebhookPayload(
  value: unknown,
  options?: ValidationLimits,
): SafeParseResult<WebhookPayload> {
  const found = payloadTypeOf(value);
  if ("success" in found) return found;
  return runContentSchema<WebhookPayload>(
    webhookPayloadSchema,
    value,
    found.type,
    [],
    "ERR_INVALID_WEBHOOK_PAYLOAD",
    options,
  );
}
