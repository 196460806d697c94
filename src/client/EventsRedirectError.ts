import { quote } from "../internal/describe.js";
import { cutString, MAX_API_ERROR_STRING } from "./boundedApiErrors.js";
import { EventsClientError } from "./errors.js";

/**
 * The service answered with a redirect (any 3xx, or a browser's `opaqueredirect` response with
 * status 0), which the client never follows: the document, the key and the authorization go only to
 * `baseUrl`. Never retried; check `baseUrl`. `location` is where it pointed, when the runtime shows
 * it: browsers hide it (an `opaqueredirect` has no headers), Node, Bun, Deno and Workers show it.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventsRedirectError } from "messaging-events/client";
 *
 * function target(error: unknown): string | undefined {
 *   return error instanceof EventsRedirectError ? error.location : undefined;
 * }
 * ```
 */
export class EventsRedirectError extends EventsClientError {
  /** The HTTP status: 301, 302, 303, 304, 307, 308, …, or 0 for a browser's opaque redirect. */
  readonly status: number;
  /**
   * The absolute URL of the `Location` header (resolved against the request URL, without user name,
   * password or fragment, its query shown as `?…`, cut to 1,000 characters), or `undefined` when absent, unreadable or hidden.
   */
  readonly location: string | undefined;

  /**
   * Creates the error.
   *
   * @param status - The HTTP status (0 for an opaque redirect).
   * @param location - Where the redirect pointed, if known; user name and password are removed.
   * @param idempotencyKey - The key of the request.
   */
  constructor(status: number, location: string | undefined, idempotencyKey: string) {
    const shown = location === undefined ? undefined : cutString(location, MAX_API_ERROR_STRING);
    const where =
      shown !== undefined
        ? ` to ${quote(shown)}`
        : status === 0
          ? " (the runtime hides where it points)"
          : "";
    super(
      "ERR_EVENTS_REDIRECT",
      `the service answered ${status === 0 ? "with an opaque redirect" : status} redirecting${where}; the client never follows redirects: check baseUrl`,
      idempotencyKey,
    );
    this.name = "EventsRedirectError";
    this.status = status;
    this.location = shown;
  }
}
