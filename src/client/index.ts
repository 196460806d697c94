export {
  type CreatedEvent,
  createEventsClient,
  type EventsClient,
  type EventsClientOptions,
  type NewEvent,
  type RetryOptions,
} from "./createEventsClient.js";
export {
  EventsApiError,
  EventsClientError,
  type EventsClientErrorCode,
  EventsResponseError,
  EventsRetryError,
  IdempotencyEchoError,
} from "./errors.js";
