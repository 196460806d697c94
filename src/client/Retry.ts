/** An attempt that may be retried: the status it got, or the network error or time-out it ended with. */
export interface Retry {
  readonly status: number | undefined;
  readonly error: unknown;
  readonly retryAfterMs: number | undefined;
}

/** What marks a {@link Retry}, so that it is never taken for a created event. */
export const retryMarker = Symbol("retry");

/** Whether an attempt ended in a {@link Retry} rather than the created event. */
export const isRetry = (value: unknown): value is Retry =>
  typeof value === "object" && value !== null && retryMarker in value;

/** Whether the service should be asked again: 5xx, 429, and 409 with Retry-After (the key still in flight). */
export const isRetryable = (response: Response): boolean =>
  response.status === 429 ||
  response.status >= 500 ||
  (response.status === 409 && response.headers.has("retry-after"));
