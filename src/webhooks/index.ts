export { createWebhookRequest } from "./createWebhookRequest.js";
export { createWebhookSigner, type WebhookSigner } from "./createWebhookSigner.js";
export { createWebhookVerifier, type WebhookVerifier } from "./createWebhookVerifier.js";
export { parseWebhookPayload, safeParseWebhookPayload } from "./parseWebhookPayload.js";
export { type SignedWebhook, type SignWebhookOptions, signWebhook } from "./signWebhook.js";
export {
  type SafeVerifyWebhookResult,
  safeVerifyWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSecret,
} from "./verifyWebhook.js";
export {
  type SafeVerifyWebhookPayloadResult,
  safeVerifyWebhookPayload,
  verifyWebhookPayload,
} from "./verifyWebhookPayload.js";
export { type VerifyWebhookRequestOptions, verifyWebhookRequest } from "./verifyWebhookRequest.js";
export {
  isWebhookVerificationError,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "./WebhookVerificationError.js";
export { type WebhookEventType, webhookEventTypes } from "./webhookEventTypes.js";
export {
  type WebhookPayload,
  type WebhookPayloadVariantSchema,
  webhookPayloadSchema,
} from "./webhookPayloadSchema.js";
