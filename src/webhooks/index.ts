export {
  createWebhookReceiver,
  type WebhookNodeRequest,
  type WebhookReceiver,
} from "./createWebhookReceiver.js";
export {
  createWebhookReplayGuard,
  type WebhookClaim,
  type WebhookReplayGuard,
} from "./createWebhookReplayGuard.js";
export { createWebhookRequest } from "./createWebhookRequest.js";
export { createWebhookSigner, type WebhookSigner } from "./createWebhookSigner.js";
export {
  createWebhookVerifier,
  type WebhookVerifier,
  type WebhookVerifierOptions,
} from "./createWebhookVerifier.js";
export { parseWebhookPayload, safeParseWebhookPayload } from "./parseWebhookPayload.js";
export {
  type SignedWebhook,
  type SignWebhookOptions,
  signWebhook,
  type WebhookSignatureEncoding,
} from "./signWebhook.js";
export type { VerifyWebhookOptions } from "./VerifyWebhookOptions.js";
export { type SafeVerifyWebhookResult, safeVerifyWebhook, verifyWebhook } from "./verifyWebhook.js";
export {
  safeVerifyWebhookRequest,
  type VerifyWebhookRequestOptions,
  verifyWebhookRequest,
} from "./verifyWebhookRequest.js";
export {
  type SafeVerifyWebhookSignatureResult,
  safeVerifyWebhookSignature,
  type VerifiedWebhookSignature,
  verifyWebhookSignature,
} from "./verifyWebhookSignature.js";
export type { WebhookBody } from "./WebhookBody.js";
export type { WebhookHeaders } from "./WebhookHeaders.js";
export type { WebhookReceipt } from "./WebhookReceipt.js";
export type {
  WebhookContext,
  WebhookErrorContext,
  WebhookHandler,
  WebhookHandlers,
  WebhookReceiverOptions,
  WebhookReplayGuardOptions,
} from "./WebhookReceiverOptions.js";
export type { WebhookSecret } from "./WebhookSecret.js";
export { isWebhookSigningError, WebhookSigningError } from "./WebhookSigningError.js";
export type { WebhookTelemetry } from "./WebhookTelemetry.js";
export {
  isWebhookVerificationError,
  type WebhookStatus,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
  type WebhookVerificationErrorKind,
} from "./WebhookVerificationError.js";
export { type WebhookEventType, webhookEventTypes } from "./webhookEventTypes.js";
export { WEBHOOK_ID_HEADER } from "./webhookIdHeader.js";
export {
  type WebhookPayload,
  type WebhookPayloadVariantSchema,
  webhookPayloadSchema,
} from "./webhookPayloadSchema.js";
