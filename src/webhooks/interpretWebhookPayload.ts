import { validationError } from "../events/EventValidationError.js";
import { runContentSchema } from "../events/runContentSchema.js";
import type { SafeParseResult } from "../events/safeParseEventContent.js";
import type { ValidationLimits } from "../events/ValidationLimits.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { type WebhookPayload, webhookPayloadSchema } from "./webhookPayloadSchema.js";

/**
 * @internal `safeParseWebhookPayload` as Zod interprets the schema: the reference the compiled
 * validator is tested against.
 */
export function interpretWebhookPayload(
  value: unknown,
  options?: ValidationLimits,
): SafeParseResult<WebhookPayload> {
  if (!isPlainObject(value)) {
    const message = `the webhook payload must be an object, not ${withArticle(describeValue(value))}`;
    const issue = { code: "invalid_type", path: [], pointer: "", message } as const;
    return { success: false, error: validationError("ERR_INVALID_WEBHOOK_PAYLOAD", undefined, [issue]) };
  }
  let type: unknown;
  try {
    type = value.type;
  } catch {
    type = undefined;
  }
  return runContentSchema<WebhookPayload>(
    webhookPayloadSchema,
    value,
    typeof type === "string" ? type : undefined,
    [],
    "ERR_INVALID_WEBHOOK_PAYLOAD",
    options,
  );
}
