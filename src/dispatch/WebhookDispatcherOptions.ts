import type { RetryOptions } from "../client/RetryOptions.js";
import type { WebhookSignatureEncoding } from "../webhooks/signWebhook.js";
import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";
import type { AttemptResponse, DeadDelivery, DeliveryQueue } from "./DeliveryQueue.js";
import type { WebhookDestinations } from "./WebhookDestinations.js";
import type { WebhookDispatcherTelemetry } from "./WebhookDispatcherTelemetry.js";
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
 * - `status` is the HTTP status, `undefined` for a network error, a time-out or a refused
 *   destination;
 * - `response` is what the endpoint answered: its status and the first bytes of its body (at most
 *   1 KiB, control characters replaced), to show a customer why their endpoint fails;
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
  /** The status and the first bytes of the answer; `undefined` when no response came. */
  readonly response: AttemptResponse | undefined;
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
 * The state of an endpoint's circuit breaker: `"closed"` (attempts flow), `"open"` (after
 * `failureThreshold` failures in a row: its deliveries wait, unattempted, until `reopensAt`) or
 * `"half-open"` (one probe attempt decides: a success closes it, a failure opens it again for twice
 * as long, up to `maxOpenMs`).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { CircuitState } from "messaging-events/dispatch";
 *
 * const paused = (state: CircuitState) => state !== "closed";
 * ```
 */
export type CircuitState = "closed" | "open" | "half-open";

/**
 * The circuit breaker's settings: after `failureThreshold` failed attempts in a row to one
 * endpoint, its deliveries wait for `openMs` (doubling after each failed probe, up to `maxOpenMs`),
 * then one probe attempt decides. Waiting deliveries are not attempts: they neither use up retries
 * nor die.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { CircuitBreakerOptions } from "messaging-events/dispatch";
 *
 * const breaker: CircuitBreakerOptions = { failureThreshold: 5, openMs: 10_000, maxOpenMs: 300_000 };
 * ```
 */
export interface CircuitBreakerOptions {
  /**
   * Failed attempts in a row that open the circuit.
   * @default 10
   */
  readonly failureThreshold?: number;
  /**
   * How long it stays open the first time.
   * @default 30000 (30 s)
   */
  readonly openMs?: number;
  /**
   * The longest it stays open (each failed probe doubles the wait up to this).
   * @default 600000 (10 min)
   */
  readonly maxOpenMs?: number;
}

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
   * The `fetch` used to send. By default, on Node.js, node:http(s) with every connection pinned to
   * the address the destination check allowed; elsewhere `globalThis.fetch`, with host names
   * resolved and checked before each attempt. With a `fetch` of yours, address literals are still
   * refused, but host names are resolved and checked only if you give `destinations.resolve` (or
   * send through an egress proxy that refuses internal addresses).
   * @default node:http(s) with the destination check at connect time (Node.js); globalThis.fetch elsewhere
   */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * Which destinations may receive webhooks: by default only public addresses (see
   * {@link WebhookDestinations}); `allow` opens exceptions, `httpsOnly` refuses `http:`.
   * @default { allow: [], httpsOnly: false }
   */
  readonly destinations?: WebhookDestinations;
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
   * How many attempts to one endpoint this process makes at once (an endpoint's own `concurrency`
   * wins), so that one slow endpoint cannot hold every worker: its other deliveries wait, and the
   * other endpoints' go on.
   * @default a quarter of concurrency, rounded up (3 with the default concurrency)
   */
  readonly endpointConcurrency?: number;
  /**
   * The circuit breaker of each endpoint (tracked in this process), or `false` for none.
   * @default { failureThreshold: 10, openMs: 30000, maxOpenMs: 600000 }
   */
  readonly circuitBreaker?: CircuitBreakerOptions | false;
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
  /**
   * Called when an endpoint's circuit opens (with the time it lets a probe through), goes half-open
   * or closes. What it returns is ignored (a promise is not awaited), and so is what it throws.
   */
  readonly onCircuitChange?: (
    endpoint: WebhookEndpoint,
    state: CircuitState,
    reopensAt: number | undefined,
  ) => unknown;
  /**
   * Traces and counts: `createOpenTelemetry()` from `messaging-events/opentelemetry` records a span
   * per `dispatch` and per attempt (each attempt continuing the dispatch's trace, across processes
   * through a durable queue: the trace context is stored with each delivery), and metrics of
   * attempts, their duration, dead deliveries, disabled endpoints and the queue's depth. Without it
   * nothing is traced or counted and nothing of OpenTelemetry is loaded. It never changes a delivery.
   */
  readonly telemetry?: WebhookDispatcherTelemetry;
}
