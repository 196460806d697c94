export {
  type CreatedEvent,
  createEventsClient,
  type EventsClient,
  type NewEvent,
} from "./createEventsClient.js";
export { EventsRedirectError } from "./EventsRedirectError.js";
export { EventsResponseTooLargeError } from "./EventsResponseTooLargeError.js";
export {
  EventsApiError,
  type EventsApiErrorObject,
  EventsClientError,
  type EventsClientErrorCode,
  EventsResponseError,
  EventsRetryError,
  IdempotencyEchoError,
  isEventsClientError,
} from "./errors.js";
export type { EventsClientOptions, RetryOptions } from "./normalizeClientOptions.js";
