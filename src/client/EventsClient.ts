import type { EventType } from "../events/eventTypes.js";
import type { DefaultEventAttributeNames, EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import type { CreatedEventResult } from "./CreatedEventResult.js";
import type { NewEvent } from "./NewEvent.js";

/**
 * A client for the events endpoint: see {@link createEventsClient}.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient, type EventsClient } from "messaging-events/client";
 *
 * const client: EventsClient = createEventsClient({ baseUrl: "https://api.example.com", authorization: "Bearer my-token" });
 * ```
 */
export interface EventsClient<N extends EventAttributeNames = DefaultEventAttributeNames> {
  /**
   * Creates an event with `POST {baseUrl}/events` and resolves to the created resource (`data`)
   * and whether the service had created it before (`replayed`).
   *
   * @param event - The type, content and optional relationships and attributes.
   * @param options - `idempotencyKey` (a new UUID v4 when absent) and an `AbortSignal`.
   */
  createEvent<T extends EventType>(
    event: NewEvent<T>,
    options?: { readonly idempotencyKey?: string; readonly signal?: AbortSignal },
  ): Promise<CreatedEventResult<T, N>>;
}
