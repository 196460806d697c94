import { EventsClientError } from "./errors.js";

/**
 * The `authorization` function threw (or its promise rejected), or gave something that is not a
 * header value that can be sent as it is (not a string, empty, a control character, a space at
 * either end). The attempt it was called for was not sent, and the create stops there: never
 * retried. Neither the message nor any property shows what the function returned; `cause` is what
 * it threw, as it threw it.
 *
 * `attempts` says how many requests were sent before: when it is more than 0, the event may exist,
 * so retry later with the same `idempotencyKey`.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsAuthorizationError } from "messaging-events/client";
 *
 * function mayExist(error: unknown): boolean {
 *   return error instanceof EventsAuthorizationError && error.attempts > 0;
 * }
 * ```
 */
export class EventsAuthorizationError extends EventsClientError {
  /** How many requests were sent before the function failed: 0 when it failed before the first. */
  readonly attempts: number;

  /**
   * Creates the error.
   *
   * @param message - What was wrong with the function or its result, without the result.
   * @param attempts - How many requests were sent before.
   * @param idempotencyKey - The key of the request.
   * @param options - `cause`, what the function threw, if it threw.
   */
  constructor(message: string, attempts: number, idempotencyKey: string, options?: { cause?: unknown }) {
    super("ERR_EVENTS_AUTHORIZATION", message, idempotencyKey, options);
    this.name = "EventsAuthorizationError";
    this.attempts = attempts;
  }
}
