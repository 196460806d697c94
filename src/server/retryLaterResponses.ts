import { singleError } from "./errorResponse.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";

// The handler's answers that tell a client to come back: every one but the opaque 500 says when.

/** Seconds a client waits before retrying an unavailable store or a create that timed out. */
const RETRY_AFTER_SECONDS = "1";
/** The most a 409 asks a client to wait: the library's client gives up on a longer `Retry-After`. */
const MAX_IN_FLIGHT_RETRY_AFTER_SECONDS = 5;

/** The 503 of a handler that is closing. */
export function shuttingDown(): Response {
  return singleError(503, "ERR_UNAVAILABLE", "the server is shutting down; retry later", {
    headers: { "retry-after": RETRY_AFTER_SECONDS },
  });
}

/** The opaque 500: `create` threw or returned garbage, or the handler failed unexpectedly. */
export function internalError(): Response {
  return singleError(500, "ERR_INTERNAL", "the event could not be created; retry later");
}

/** The 503 of an idempotency store that failed or did not answer within `storeTimeoutMs`. */
export function unavailable(): Response {
  return singleError(503, "ERR_UNAVAILABLE", "the idempotency store is unavailable; retry later", {
    headers: { "retry-after": RETRY_AFTER_SECONDS },
  });
}

/** The 429 of a principal whose share of the idempotency store is taken by its own unfinished requests. */
export function quotaExceeded(): Response {
  return singleError(
    429,
    "ERR_QUOTA_EXCEEDED",
    "this principal has too many requests in progress in the idempotency store; retry after the delay in Retry-After",
    { headers: { "retry-after": RETRY_AFTER_SECONDS } },
  );
}

/**
 * A 409 for a key in flight. The store does not say how long the holder's lease has left, so the
 * wait is derived from `leaseMs`: a third of it (how often a live holder renews; a dead holder's key
 * is free at most three of these later), from 1 s up to the 5 s the library's client accepts.
 */
export function inFlight(settings: NormalizedHandlerOptions): Response {
  const seconds = Math.min(
    MAX_IN_FLIGHT_RETRY_AFTER_SECONDS,
    Math.max(1, Math.ceil(settings.leaseMs / 3000)),
  );
  return singleError(
    409,
    "ERR_IDEMPOTENCY_KEY_IN_FLIGHT",
    "a request with this idempotency key is in progress; retry after the delay in Retry-After",
    { headers: { "retry-after": String(seconds) } },
  );
}

/** The answer when `create` was given up: it ran past `createTimeoutMs`, or the handler closed. */
export function createGivenUp(settings: NormalizedHandlerOptions, why: "timeout" | "closed"): Response {
  return why === "closed"
    ? shuttingDown()
    : singleError(
        503,
        "ERR_CREATE_TIMEOUT",
        `the event was not created within ${settings.createTimeoutMs} ms; its idempotency key is free again: retry with the same key`,
        { headers: { "retry-after": RETRY_AFTER_SECONDS } },
      );
}
