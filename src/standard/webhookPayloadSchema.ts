import { safeParseWebhookPayload } from "../webhooks/parseWebhookPayload.js";
import type { WebhookPayload } from "../webhooks/webhookPayloadSchema.js";
import { bundleJsonSchemaConverter } from "./jsonSchemaConverter.js";
import { webhookPayloadJsonSchema } from "./jsonSchemaTexts.js";
import type { StandardSchemaWithJsonSchema } from "./StandardSchema.js";
import { standardSchemaOf, validateBy } from "./standardSchemaOf.js";

/**
 * The Standard Schema of a version-2 webhook payload, any of the seven types (named like the Zod
 * schema of `messaging-events/webhooks`): `validate` answers as `safeParseWebhookPayload` does,
 * issue paths from the payload (`["version"]`, `["content", "body"]`), and the output is the
 * `WebhookPayload` union, which narrows on `type`; `jsonSchema` gives the shipped
 * `webhook-payload.json`. It checks the payload only: verify the signature first (`verifyWebhook`
 * does both).
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import { webhookPayloadSchema } from "messaging-events/standard";
 *
 * const result = webhookPayloadSchema["~standard"].validate({ type: "s.room.close", version: 1, content: {} });
 * console.log(result.issues?.[0]?.message); // "version must be 2, not 1"
 * ```
 */
export const webhookPayloadSchema: StandardSchemaWithJsonSchema<WebhookPayload, WebhookPayload> =
  /* @__PURE__ */ standardSchemaOf(
    /* @__PURE__ */ validateBy(safeParseWebhookPayload),
    /* @__PURE__ */ bundleJsonSchemaConverter(webhookPayloadJsonSchema),
  );
