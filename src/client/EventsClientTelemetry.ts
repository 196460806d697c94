/**
 * What the client tells its `onRetry` hook, and its `telemetry`, before each retry: which attempt
 * failed and how, and how long the client waits now. It never holds the authorization, the
 * idempotency key or the document.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventsClientRetry } from "messaging-events/client";
 *
 * const line = (retry: EventsClientRetry) =>
 *   `attempt ${retry.attempt} failed (${retry.status ?? retry.errorType}); retrying in ${retry.delayMs} ms`;
 * ```
 */
export interface EventsClientRetry {
  /** The number of the attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the client waits before the next attempt, in milliseconds (what `Retry-After` asked, when it did). */
  readonly delayMs: number;
  /** The status of the failed attempt; `undefined` when no response came. */
  readonly status: number | undefined;
  /**
   * Why no response came: the error's code (`ECONNREFUSED`), `"timeout"`, or its class name
   * (`TypeError`); `undefined` when a response came. Never an error message.
   */
  readonly errorType: string | undefined;
  /** What the service's `Retry-After` asked for, in milliseconds; `undefined` when it sent none. */
  readonly retryAfterMs: number | undefined;
}

/**
 * Instrumentation for `createEventsClient` (its `telemetry` option): one trace per `createEvent`,
 * one per attempt inside it, and the retries between them. `createOpenTelemetry()` from
 * `messaging-events/opentelemetry` makes one that records OpenTelemetry spans; any object of this
 * shape will do (a logger, a test double), and nothing of OpenTelemetry is loaded without it.
 *
 * The client calls it synchronously and never waits for it; whatever it throws is ignored. It is
 * handed the event type, the URL, statuses and error codes: never the authorization, the
 * idempotency key, the document or an error's message. The headers an attempt's trace gives
 * (`traceparent`, `tracestate`) are added to that attempt's request, except any that would replace
 * one the client sends.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createEventsClient, type EventsClientTelemetry } from "messaging-events/client";
 *
 * // A stand-in that logs instead of recording spans.
 * const telemetry: EventsClientTelemetry = {
 *   startCreateEvent: ({ eventType }) => ({
 *     startAttempt: ({ attempt }) => ({
 *       run: (fn) => fn(),
 *       end: ({ status, errorType }) => console.log(eventType, attempt, status ?? errorType),
 *     }),
 *     retry: ({ delayMs }) => console.log(`retrying in ${delayMs} ms`),
 *     end: ({ errorType }) => console.log(eventType, errorType ?? "created"),
 *   }),
 * };
 * const client = createEventsClient({ baseUrl: "https://api.example.com", authorization: "Bearer token", telemetry });
 * ```
 */
export interface EventsClientTelemetry {
  /** Called when `createEvent` starts; what it returns follows that call to its end. */
  startCreateEvent(create: {
    /** The event type. */
    readonly eventType: string;
    /** `{baseUrl}/events`, without the base URL's query, if it has one. */
    readonly url: string;
  }): {
    /** Called before each attempt is sent. */
    startAttempt(attempt: {
      /** The attempt's number, from 1. */
      readonly attempt: number;
    }): {
      /** Headers to add to this attempt's request: the trace context (`traceparent`, `tracestate`). */
      readonly headers?: Readonly<Record<string, string>>;
      /** Runs `fn` (the request) within this attempt's trace context, and returns what it returns. */
      run<T>(fn: () => T): T;
      /** Called when the attempt's answer is known: its status, or why none came. */
      end(result: { readonly status: number | undefined; readonly errorType: string | undefined }): void;
    };
    /** Called before each retry, with the same value as the `onRetry` hook. */
    retry(retry: EventsClientRetry): void;
    /**
     * Called when `createEvent` settles: `replayed` when it resolved, else the `errorType` it
     * rejected with (the client error's code, `ERR_EVENTS_RETRIES_EXHAUSTED` say).
     */
    end(result: { readonly replayed: boolean | undefined; readonly errorType: string | undefined }): void;
  };
}
