/**
 * Why the dispatcher refused a call, as a stable code:
 *
 * - `ERR_DISPATCH_NOT_A_WEBHOOK_TYPE`: the event type is not one of the seven types the service sends
 *   as webhooks;
 * - `ERR_DISPATCH_PAYLOAD_TOO_LARGE`: the serialised payload is longer than `maxPayloadBytes`
 *   (receivers refuse such bodies, so every attempt would fail);
 * - `ERR_DISPATCH_INVALID_ENDPOINT`: an endpoint is not `{ id, url, secret }` as described, or two
 *   share an id;
 * - `ERR_DISPATCH_ENDPOINTS_FAILED`: the `endpoints` function threw or rejected;
 * - `ERR_DISPATCH_QUEUE_FAILED`: the delivery queue refused or failed to store the deliveries;
 * - `ERR_DISPATCH_QUEUE_FULL`: the memory queue holds as many deliveries (or payload bytes) as its
 *   caps allow: nothing of this dispatch was stored; try again later, or give the queue more room;
 * - `ERR_DISPATCH_DESTINATION_REFUSED`: an endpoint's URL is refused by the destination rules: an
 *   internal address (loopback, private, link-local, …) not allowed by `destinations.allow`, or
 *   `http:` when `destinations.httpsOnly` is on;
 * - `ERR_DISPATCH_CLOSED`: the dispatcher or the queue was closed.
 *
 * An invalid payload is an `EventValidationError` with code `ERR_INVALID_WEBHOOK_PAYLOAD`.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { DispatchErrorCode } from "messaging-events/dispatch";
 *
 * const code: DispatchErrorCode = "ERR_DISPATCH_PAYLOAD_TOO_LARGE";
 * ```
 */
export type DispatchErrorCode =
  | "ERR_DISPATCH_NOT_A_WEBHOOK_TYPE"
  | "ERR_DISPATCH_PAYLOAD_TOO_LARGE"
  | "ERR_DISPATCH_INVALID_ENDPOINT"
  | "ERR_DISPATCH_ENDPOINTS_FAILED"
  | "ERR_DISPATCH_QUEUE_FAILED"
  | "ERR_DISPATCH_QUEUE_FULL"
  | "ERR_DISPATCH_DESTINATION_REFUSED"
  | "ERR_DISPATCH_CLOSED";

const brand = Symbol.for("messaging-events.DispatchError");

/**
 * The error the dispatcher and its queues throw. Its message names endpoints by their `id` only:
 * never a secret, a URL or a connection string; the original failure, if any, is kept as `cause`.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createWebhookDispatcher, DispatchError } from "messaging-events/dispatch";
 *
 * const dispatcher = createWebhookDispatcher({ endpoints: [] });
 * try {
 *   await dispatcher.dispatch({ event: { type: "s.message.text", content: { body: "x".repeat(2_000_000) } } });
 * } catch (error) {
 *   if (error instanceof DispatchError) console.log(error.code); // "ERR_DISPATCH_PAYLOAD_TOO_LARGE"
 * }
 * await dispatcher.close();
 * ```
 */
export class DispatchError extends Error {
  /** Why the call failed. */
  readonly code: DispatchErrorCode;

  /**
   * Creates the error. The dispatcher and the queues create these; applications normally only read them.
   *
   * @param code - Why the call failed.
   * @param message - What happened, without secrets.
   * @param options - `cause`: the failure being wrapped.
   */
  constructor(code: DispatchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DispatchError";
    this.code = code;
  }

  /** @internal Marks instances so {@link isDispatchError} recognises them across realms and copies. */
  get [brand](): true {
    return true;
  }
}

/**
 * Tells whether a value is a {@link DispatchError}, also from another realm or another copy of this
 * library, where `instanceof` fails. Never throws, whatever the value (throwing proxies included).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { isDispatchError } from "messaging-events/dispatch";
 *
 * console.log(isDispatchError(new Error("boom"))); // false
 * ```
 */
export function isDispatchError(value: unknown): value is DispatchError {
  try {
    return (
      value instanceof DispatchError ||
      (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true)
    );
  } catch {
    return false;
  }
}
