import { isEventType } from "../events/isEventType.js";
import { quote } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { safeParseWebhookPayload } from "../webhooks/parseWebhookPayload.js";
import { type WebhookEventType, webhookEventTypes } from "../webhooks/webhookEventTypes.js";
import type { WebhookPayload } from "../webhooks/webhookPayloadSchema.js";
import { DispatchError } from "./DispatchError.js";

const webhookTypes: ReadonlySet<unknown> = new Set(webhookEventTypes);

/** A payload built and validated, and its body: serialised once, sent as is on every attempt. */
export interface BuiltPayload {
  readonly payload: WebhookPayload;
  readonly type: WebhookEventType;
  readonly body: string;
}

function read(value: Record<string, unknown>, key: string): unknown {
  try {
    return value[key];
  } catch {
    return undefined;
  }
}

/** The payload of a `{ event, …members }` input, or the input itself when it is a payload already. */
function payloadOf(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  try {
    if (!Object.hasOwn(input, "event")) return input;
    const { event, ...members } = input;
    if (!isPlainObject(event)) return { ...members, version: 2, content: undefined, type: undefined };
    return { ...members, type: event.type, version: 2, content: event.content };
  } catch {
    // A throwing getter or proxy: validation reports what it could not read.
    return input;
  }
}

/**
 * Builds the version-2 payload of a dispatch input and validates it: a type that is not one of the
 * seven webhook types is a `DispatchError` (`ERR_DISPATCH_NOT_A_WEBHOOK_TYPE`), anything else
 * invalid the `EventValidationError` (`ERR_INVALID_WEBHOOK_PAYLOAD`) of the payload validator.
 */
export function buildWebhookPayload(input: unknown): BuiltPayload {
  const candidate = payloadOf(input);
  const type = isPlainObject(candidate) ? read(candidate, "type") : undefined;
  if (typeof type === "string" && !webhookTypes.has(type)) {
    const known = isEventType(type)
      ? "an event type the service does not send as a webhook"
      : "not an event type";
    throw new DispatchError(
      "ERR_DISPATCH_NOT_A_WEBHOOK_TYPE",
      `${quote(type)} is ${known}; only ${webhookEventTypes.join(", ")} are dispatched`,
    );
  }
  const result = safeParseWebhookPayload(candidate);
  if (!result.success) throw result.error;
  const body = JSON.stringify(result.data);
  return { payload: result.data, type: result.data.type, body };
}
