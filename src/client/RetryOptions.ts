/**
 * How to retry, in one shape for the client (`createEventsClient`) and the webhook dispatcher
 * (`createWebhookDispatcher`): the waits before each retry, listed (`delaysMs`; as many retries as
 * waits), each spread at random by `jitter`, and how long a `Retry-After` may make them wait
 * (`maxRetryAfterMs`). A missing member takes the default of whoever retries: the client retries
 * within about a second, the dispatcher over hours.
 *
 * Exported from `messaging-events/client`, `messaging-events/dispatch` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { RetryOptions } from "messaging-events/client";
 *
 * const fiveRetries: RetryOptions = { delaysMs: [200, 400, 800, 1_600, 3_200] };
 * const once: RetryOptions = { delaysMs: [] }; // a single attempt
 * const exact: RetryOptions = { delaysMs: [1_000, 10_000], jitter: 0, maxRetryAfterMs: 60_000 };
 * ```
 */
export interface RetryOptions {
  /**
   * The waits before each retry, in milliseconds, after the first attempt (made at once): its
   * length is the number of retries, so `[]` means a single attempt. At most 100 waits, each a
   * finite number >= 0.
   * @default [100, 200, 400] in the client; [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] in the dispatcher (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h)
   */
  readonly delaysMs?: readonly number[];
  /**
   * The spread of each wait, at random, as a fraction from 0 to below 1: `0.2` waits within ±20%
   * of it, so that senders failing together do not retry together; `0` keeps the waits exact. A
   * wait a `Retry-After` imposes is not spread.
   * @default 0.5 in the client; 0.2 in the dispatcher
   */
  readonly jitter?: number;
  /**
   * The longest wait a `Retry-After` may impose, in milliseconds; `Infinity` for no limit. The
   * client waits what the service asks instead of its own wait, and gives up (`EventsRetryError`)
   * when it asks for longer than this; the dispatcher never waits less than its own wait, and
   * waits at most this long.
   * @default 5000 in the client; in the dispatcher, the wait after the next one (the last when there is none)
   */
  readonly maxRetryAfterMs?: number;
}
