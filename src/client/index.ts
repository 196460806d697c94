export type { CreatedEvent } from "./CreatedEvent.js";
export type { CreatedEventResult } from "./CreatedEventResult.js";
export { createEventsClient } from "./createEventsClient.js";
export type { EventsApiErrorObject } from "./EventsApiErrorObject.js";
export { EventsAuthorizationError } from "./EventsAuthorizationError.js";
export type { EventsClient } from "./EventsClient.js";
export type { EventsClientRetry, EventsClientTelemetry } from "./EventsClientTelemetry.js";
export { EventsRedirectError } from "./EventsRedirectError.js";
export { EventsResponseTooLargeError } from "./EventsResponseTooLargeError.js";
export {
  EventsApiError,
  EventsClientError,
  type EventsClientErrorCode,
  EventsResponseError,
  EventsRetryError,
  IdempotencyEchoError,
  isEventsClientError,
} from "./errors.js";
export type { NewEvent } from "./NewEvent.js";
export type { EventsClientOptions } from "./normalizeClientOptions.js";
export type { RetryOptions } from "./RetryOptions.js";
