import type { RetryOptions } from "../client/RetryOptions.js";
import type { WebhookSignatureEncoding } from "../webhooks/signWebhook.js";
import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";
import type { DeadDelivery, DeliveryQueue } from "./DeliveryQueue.js";
import type { WebhookEndpoint } from "./WebhookEndpoint.js";

/**
 * The endpoints to deliver to: a list, or a function (sync or async) that returns the current list,
 * called at each `dispatch` and before each attempt (to pick up rotated secrets and removed
 * endpoints; cache in it if your store is slow).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { WebhookEndpoints } from "messaging-events/dispatch";
 *
 * const fixed: WebhookEndpoints = [{ id: "acme", url: "https://acme.example/hooks", secret: "s3cr3t" }];
 * const dynamic: WebhookEndpoints = async () => fixed;
 * ```
 */
export type WebhookEndpoints =
  | readonly WebhookEndpoint[]
  | (() => readonly WebhookEndpoint[] | Promise<readonly WebhookEndpoint[]>);

/**
 * What one attempt did, handed to the `onAttempt` hook:
 *
 * - `outcome` is `"delivered"` (a 2xx), `"retry"` (it failed and will be tried again at `retryAt`)
 *   or `"dead"` (it failed for good: retries exhausted, 410, endpoint disabled or removed);
 * - `status` is the HTTP status, `undefined` for a network error or a time-out;
 * - `timestamp` is the `service-timestamp` this attempt was signed with;
 * - `reason` says in words why it failed (never a secret).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { DeliveryAttempt } from "messaging-events/dispatch";
 *
 * const log = (attempt: DeliveryAttempt) =>
 *   console.log(`${attempt.deliveryId} #${attempt.attempt} -> ${attempt.status ?? "-"} ${attempt.outcome}`);
 * ```
 */
export interface DeliveryAttempt {
  /** The delivery id (`service-webhook-id`). */
  readonly deliveryId: string;
  /** The id shared by the deliveries of one dispatched event. */
  readonly eventId: string;
  /** The endpoint. */
  readonly endpointId: string;
  /** The event type. */
  readonly type: WebhookEventType;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  /** The `service-timestamp` this attempt was signed with (empty when nothing was sent). */
  readonly timestamp: string;
  /** The HTTP status; `undefined` when no response came (network error, time-out, nothing sent). */
  readonly status: number | undefined;
  /** What happens to the delivery now. */
  readonly outcome: "delivered" | "retry" | "dead";
  /** Why the attempt failed; `undefined` when delivered. */
  readonly reason: string | undefined;
  /** When the next attempt is due (epoch ms), for `"retry"`. */
  readonly retryAt: number | undefined;
  /** How long the attempt took, in milliseconds. */
  readonly durationMs: number;
}

/**
 * Why an endpoint was disabled: `"gone"` (it answered 410 Gone) or `"failing"` (it failed without a
 * single success for `disableAfterMs`).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { EndpointDisabledReason } from "messaging-events/dispatch";
 *
 * const reason: EndpointDisabledReason = "gone";
 * ```
 */
export type EndpointDisabledReason = "gone" | "failing";

/**
 * The options of `createWebhookDispatcher`. Only `endpoints` is required.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { WebhookDispatcherOptions } from "messaging-events/dispatch";
 *
 * const options: WebhookDispatcherOptions = {
 *   endpoints: [{ id: "acme", url: "https://acme.example/hooks", secret: "s3cr3t" }],
 *   retry: { delaysMs: [1_000, 10_000, 60_000] },
 *   timeoutMs: 5_000,
 *   onEndpointDisabled: (endpoint, reason) => console.log(`disabled ${endpoint.id}: ${reason}`),
 * };
 * ```
 */
export interface WebhookDispatcherOptions {
  /** The endpoints, or a function returning them. */
  readonly endpoints: WebhookEndpoints;
  /**
   * Where deliveries wait between attempts. The default memory queue serves one process and loses
   * everything on exit; the dispatcher closes a queue it created, never one you pass.
   * @default createMemoryDeliveryQueue()
   */
  readonly queue?: DeliveryQueue;
  /**
   * Whether this process also delivers. `false` makes a producer only: `dispatch` enqueues, and
   * workers in other processes (dispatchers with `deliver: true` on the same durable queue) send.
   * @default true
   */
  readonly deliver?: boolean;
  /**
   * The `fetch` used to send.
   * @default globalThis.fetch
   */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * How to retry a failed attempt: the waits before each retry (after the last, the delivery is
   * dead; `[]` means one attempt only), their jitter, and the longest `Retry-After` (on 429 or
   * 503) to honour (see {@link RetryOptions}); each missing member takes its default. A
   * `Retry-After` never makes a wait shorter than planned.
   * @default { delaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000], jitter: 0.2 } (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±20%; a Retry-After up to the wait after the next one)
   */
  readonly retry?: RetryOptions;
  /**
   * The time-out of one attempt, response included: past it, the request is aborted and the attempt
   * failed.
   * @default 15000
   */
  readonly timeoutMs?: number;
  /**
   * The largest serialised payload `dispatch` accepts, in UTF-8 bytes (receivers read at most
   * 1 MiB by default); a larger one is refused with `ERR_DISPATCH_PAYLOAD_TOO_LARGE`.
   * @default 1048576
   */
  readonly maxPayloadBytes?: number;
  /**
   * An endpoint that fails without a single success for this long is disabled (the
   * `onEndpointDisabled` hook is called with `"failing"`, and its queued deliveries die as they come
   * up). `Infinity` never disables. The failure window is tracked in the delivering process.
   * @default 432000000 (5 days)
   */
  readonly disableAfterMs?: number;
  /**
   * How many attempts this process makes at once.
   * @default 10
   */
  readonly concurrency?: number;
  /**
   * How signatures are written: unpadded base64url as the service does, or `"hex"` / `"base64"`.
   * @default "base64url"
   */
  readonly encoding?: WebhookSignatureEncoding;
  /** Called after every attempt. What it returns is ignored (a promise is not awaited), and so is what it throws. */
  readonly onAttempt?: (attempt: DeliveryAttempt) => unknown;
  /** Called when a delivery dies. What it returns is ignored (a promise is not awaited), and so is what it throws. */
  readonly onDead?: (delivery: DeadDelivery) => unknown;
  /**
   * Called when an endpoint is disabled. Persist it there (and stop returning the endpoint from
   * `endpoints`): the dispatcher remembers it only in this process. What it returns is ignored (a promise is not awaited), and so is what it throws.
   */
  readonly onEndpointDisabled?: (endpoint: WebhookEndpoint, reason: EndpointDisabledReason) => unknown;
}
