import type { EventType } from "../events/eventTypes.js";
import { IDEMPOTENCY_KEY_HEADER } from "../idempotency/idempotencyKey.js";
import { readBytesWithLimit } from "../internal/readBytesWithLimit.js";
import { parseRetryAfter } from "../internal/retryAfter.js";
import { MAX_TIMER_MS } from "../internal/sleep.js";
import { JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import type { CreatedEventResult } from "./CreatedEventResult.js";
import { EventsRedirectError } from "./EventsRedirectError.js";
import { EventsResponseTooLargeError } from "./EventsResponseTooLargeError.js";
import { EventsApiError, EventsClientError } from "./errors.js";
import { errorsOf } from "./errorsOf.js";
import type { InternalClientOptions } from "./normalizeClientOptions.js";
import { isRetryable, type Retry, retryMarker } from "./Retry.js";
import { readCreatedEvent } from "./readCreatedEvent.js";
import { isRedirect, locationOf } from "./redirects.js";

/** Whether the answer is a replay: `Idempotent-Replayed: true`. */
const isReplayed = (response: Response): boolean =>
  response.headers.get("idempotent-replayed")?.trim().toLowerCase() === "true";

/**
 * One request, with its own time-out and the `Authorization` value of this attempt: the created
 * event, a retry, or a thrown client error. `secrets` are blotted out of anything the service
 * sends back.
 */
export function createAttempt<T extends EventType>(
  settings: InternalClientOptions,
  body: string,
  key: string,
  type: T,
): (
  authorization: string,
  secrets: readonly string[],
  signal: AbortSignal | undefined,
) => Promise<CreatedEventResult<T> | Retry> {
  const { endpoint, timeoutMs, maxResponseBytes, attributeNames: names } = settings;
  return async (authorization, secrets, signal) => {
    const headers = {
      Authorization: authorization,
      "Content-Type": JSON_API_MEDIA_TYPE,
      Accept: JSON_API_MEDIA_TYPE,
      [IDEMPOTENCY_KEY_HEADER]: key,
    };
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", abort, { once: true });
    // setTimeout cannot wait longer than 2^31 - 1 ms: a longer (or infinite) time-out means none.
    const timer =
      timeoutMs <= MAX_TIMER_MS
        ? setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), timeoutMs)
        : undefined;
    try {
      const response = await settings.fetch(endpoint, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: controller.signal,
      });
      const { status } = response;
      if (isRedirect(response)) {
        await response.body?.cancel().catch(() => undefined);
        throw new EventsRedirectError(status, locationOf(response, endpoint, secrets), key);
      }
      if (isRetryable(response)) {
        await response.body?.cancel().catch(() => undefined);
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now());
        return { [retryMarker]: true, status, error: undefined, retryAfterMs };
      }
      const declared = response.headers.get("content-length");
      if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxResponseBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new EventsResponseTooLargeError(status, maxResponseBytes, key);
      }
      const read = await readBytesWithLimit(response.body, maxResponseBytes);
      if (!read.success) throw new EventsResponseTooLargeError(status, maxResponseBytes, key);
      const text = new TextDecoder().decode(read.bytes);
      if (!response.ok) throw new EventsApiError(status, errorsOf(text, secrets), key);
      return {
        data: readCreatedEvent(names, text, secrets, status, type, key),
        replayed: isReplayed(response),
      };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof EventsClientError) throw error;
      // A network error or a time-out, while sending or while reading the body: the request may or
      // may not have arrived; the key makes a retry safe.
      return { [retryMarker]: true, status: undefined, error, retryAfterMs: undefined };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  };
}
