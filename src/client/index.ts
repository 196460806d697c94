export {
  type CreatedEvent,
  type CreatedEventResult,
  createEventsClient,
  type EventsClient,
  type NewEvent,
} from "./createEventsClient.js";
export type { EventsApiErrorObject } from "./EventsApiErrorObject.js";
export { EventsAuthorizationError } from "./EventsAuthorizationError.js";
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
export type { EventsClientOptions } from "./normalizeClientOptions.js";
export type { RetryOptions } from "./RetryOptions.js";
