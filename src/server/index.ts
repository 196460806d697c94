export { createEventsHandler } from "./createEventsHandler.js";
export {
  createMemoryIdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from "./createMemoryIdempotencyStore.js";
export { createNodeListener, type NodeRequestLike, type NodeResponseLike } from "./createNodeListener.js";
export type {
  CreateEventRequest,
  CreateEventResult,
  EventsHandler,
  EventsHandlerErrorContext,
  EventsHandlerErrorStage,
  EventsHandlerOptions,
} from "./EventsHandlerOptions.js";
export type { EventsHandlerTelemetry } from "./EventsHandlerTelemetry.js";
export type { EventsHandlerErrorCode } from "./errorResponse.js";
export type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyRecordRef,
  IdempotencyStore,
  StoredResponse,
} from "./IdempotencyStore.js";
export {
  IdempotencyStoreError,
  type IdempotencyStoreErrorCode,
  isIdempotencyStoreError,
} from "./IdempotencyStoreError.js";
