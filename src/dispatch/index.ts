export type { RetryOptions } from "../client/RetryOptions.js";
export { WEBHOOK_ID_HEADER } from "../webhooks/webhookIdHeader.js";
export {
  createMemoryDeliveryQueue,
  type MemoryDeliveryQueue,
  type MemoryDeliveryQueueOptions,
} from "./createMemoryDeliveryQueue.js";
export {
  createWebhookDispatcher,
  type DispatchResult,
  type WebhookDispatcher,
} from "./createWebhookDispatcher.js";
export type {
  AttemptResponse,
  DeadDelivery,
  DeliveryLease,
  DeliveryQueue,
  DeliveryTraceContext,
  QueuedDelivery,
} from "./DeliveryQueue.js";
export { DispatchError, type DispatchErrorCode, isDispatchError } from "./DispatchError.js";
export type { DispatchInput, WebhookEventInput } from "./DispatchInput.js";
export { safeParseWebhookUrl, type WebhookUrlResult } from "./safeParseWebhookUrl.js";
export type { WebhookDestinations } from "./WebhookDestinations.js";
export type {
  CircuitBreakerOptions,
  CircuitState,
  DeliveryAttempt,
  EndpointDisabledReason,
  WebhookDispatcherOptions,
  WebhookEndpoints,
} from "./WebhookDispatcherOptions.js";
export type { WebhookDispatcherTelemetry } from "./WebhookDispatcherTelemetry.js";
export type { WebhookEndpoint } from "./WebhookEndpoint.js";
