import { EventsClientError } from "./errors.js";

/**
 * The response body is longer than the client's `maxResponseBytes` (1 MiB by default): the client
 * stopped reading at the cap. Never retried. After a 2xx the event may have been created: retry
 * with the same key, or raise the cap.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsResponseTooLargeError } from "messaging-events/client";
 *
 * function cap(error: unknown): number | undefined {
 *   return error instanceof EventsResponseTooLargeError ? error.maxResponseBytes : undefined;
 * }
 * ```
 */
export class EventsResponseTooLargeError extends EventsClientError {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The cap that was exceeded, in bytes. */
  readonly maxResponseBytes: number;

  /**
   * Creates the error.
   *
   * @param status - The HTTP status.
   * @param maxResponseBytes - The cap, in bytes.
   * @param idempotencyKey - The key of the request.
   */
  constructor(status: number, maxResponseBytes: number, idempotencyKey: string) {
    super(
      "ERR_EVENTS_RESPONSE_TOO_LARGE",
      `the service answered ${status} with a body longer than maxResponseBytes (${maxResponseBytes} bytes); reading stopped there`,
      idempotencyKey,
    );
    this.name = "EventsResponseTooLargeError";
    this.status = status;
    this.maxResponseBytes = maxResponseBytes;
  }
}
