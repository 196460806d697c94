import type { EventType } from "../events/eventTypes.js";
import { IDEMPOTENCY_KEY_HEADER } from "../idempotency/idempotencyKey.js";
import { errorTypeOf } from "../internal/errorType.js";
import { readBytesWithLimit } from "../internal/readBytesWithLimit.js";
import { parseRetryAfter } from "../internal/retryAfter.js";
import { MAX_TIMER_MS } from "../internal/sleep.js";
import { JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import type { CreatedEventResult } from "./CreatedEventResult.js";
import type { EventsClientTelemetry } from "./EventsClientTelemetry.js";
import { EventsRedirectError } from "./EventsRedirectError.js";
import { EventsResponseTooLargeError } from "./EventsResponseTooLargeError.js";
import { EventsApiError, EventsClientError } from "./errors.js";
import { errorsOf } from "./errorsOf.js";
import type { InternalClientOptions } from "./normalizeClientOptions.js";
import { isRetryable, type Retry, retryMarker } from "./Retry.js";
import { readCreatedEvent } from "./readCreatedEvent.js";
import { isRedirect, locationOf } from "./redirects.js";
import { isSendableHeaderValue } from "./sendableHeaderValue.js";

/** One attempt's trace, as the client's telemetry gives it. */
export type AttemptTrace = ReturnType<ReturnType<EventsClientTelemetry["startCreateEvent"]>["startAttempt"]>;

/** The headers the client sends itself, by lower-case name: a trace's headers never replace them. */
const OWN_HEADERS = new Set([
  "authorization",
  "content-type",
  "accept",
  IDEMPOTENCY_KEY_HEADER.toLowerCase(),
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The client's headers, after the trace context a trace gives (only names and values that can be sent). */
function withTraceHeaders(
  own: Record<string, string>,
  trace: AttemptTrace | undefined,
): Record<string, string> {
  const extra = trace?.headers;
  if (typeof extra !== "object" || extra === null) return own;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra)) {
    if (
      typeof value === "string" &&
      TOKEN.test(name) &&
      !OWN_HEADERS.has(name.toLowerCase()) &&
      isSendableHeaderValue(value)
    )
      headers[name] = value;
  }
  return { ...headers, ...own };
}

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
  trace?: AttemptTrace,
) => Promise<CreatedEventResult<T> | Retry> {
  const { endpoint, timeoutMs, maxResponseBytes, attributeNames: names } = settings;
  return async (authorization, secrets, signal, trace) => {
    const headers = withTraceHeaders(
      {
        Authorization: authorization,
        "Content-Type": JSON_API_MEDIA_TYPE,
        Accept: JSON_API_MEDIA_TYPE,
        [IDEMPOTENCY_KEY_HEADER]: key,
      },
      trace,
    );
    // What the trace is told when the attempt ends: the status, or why there is none (or why a
    // response was refused).
    let status: number | undefined;
    let errorType: string | undefined;
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", abort, { once: true });
    // setTimeout cannot wait longer than 2^31 - 1 ms: a longer (or infinite) time-out means none.
    const timer =
      timeoutMs <= MAX_TIMER_MS
        ? setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), timeoutMs)
        : undefined;
    try {
      const init: RequestInit = {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: controller.signal,
      };
      const response = await (trace === undefined
        ? settings.fetch(endpoint, init)
        : trace.run(() => settings.fetch(endpoint, init)));
      status = response.status;
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
      errorType = errorTypeOf(signal?.aborted ? signal.reason : error);
      if (signal?.aborted) throw signal.reason;
      if (error instanceof EventsClientError) throw error;
      // A network error or a time-out, while sending or while reading the body: the request may or
      // may not have arrived; the key makes a retry safe.
      return { [retryMarker]: true, status: undefined, error, retryAfterMs: undefined };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      trace?.end({ status, errorType });
    }
  };
}
