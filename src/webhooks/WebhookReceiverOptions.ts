import type { IdempotencyStore } from "../server/IdempotencyStore.js";
import type { WebhookSecret } from "./WebhookSecret.js";
import type { WebhookTelemetry } from "./WebhookTelemetry.js";
import type { WebhookVerificationError } from "./WebhookVerificationError.js";
import type { WebhookEventType } from "./webhookEventTypes.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * The options of `createWebhookReplayGuard`, which `createWebhookReceiver` takes too.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookReplayGuardOptions } from "messaging-events/webhooks";
 *
 * const options: WebhookReplayGuardOptions = { leaseMs: 60_000, retentionMs: 72 * 3_600_000 };
 * ```
 */
export interface WebhookReplayGuardOptions {
  /**
   * Where deliveries are claimed and remembered: any `IdempotencyStore`. The memory store serves
   * one process; give every receiver process the same shared store (`createRedisIdempotencyStore`
   * from `messaging-events/server/redis`) so that a delivery is handled once across them.
   * @default createMemoryIdempotencyStore() (closed with the receiver)
   */
  readonly store?: IdempotencyStore;
  /**
   * How long a claim holds without being renewed, in milliseconds. It is renewed while your handler
   * runs; if the process dies, the delivery is free again after this, and a copy arriving meanwhile is
   * answered 409 with this as `Retry-After`.
   * @default 30_000 (30 s)
   */
  readonly leaseMs?: number;
  /**
   * How long a processed delivery id is remembered, in milliseconds: longer than the sender retries
   * (the library's dispatcher gives up after about 33 hours).
   * @default 172_800_000 (48 hours)
   */
  readonly retentionMs?: number;
  /**
   * How long one store call may take, in milliseconds: past it, the webhook is answered 503 with
   * `Retry-After` (and a claim that lands later is released).
   * @default 2_000 (2 s)
   */
  readonly storeTimeoutMs?: number;
}

/**
 * What a webhook handler is told besides the payload.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookContext } from "messaging-events/webhooks";
 *
 * const describe = (context: WebhookContext) => `${context.deliveryId ?? "no id"} at ${context.timestamp.toISOString()}`;
 * ```
 */
export interface WebhookContext {
  /** The `service-webhook-id` of the delivery: the same on every retry. `undefined` when the request had none. */
  readonly deliveryId: string | undefined;
  /** The signed time (`service-timestamp`). */
  readonly timestamp: Date;
  /** The MAC as 128 lowercase hex digits. */
  readonly signature: string;
  /**
   * Aborts when this process loses its claim on the delivery (it ran past its lease and another
   * process took over) or the receiver closes: stop, and let the throw answer 500.
   */
  readonly signal: AbortSignal;
}

/**
 * A handler of one webhook type: its payload is narrowed to that type. Return (or resolve) when the
 * webhook is processed; throw (or reject) to have it retried.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookHandler, WebhookPayload } from "messaging-events/webhooks";
 *
 * const onText: WebhookHandler<Extract<WebhookPayload, { type: "s.message.text" }>> = async (payload) => {
 *   console.log(payload.content.body);
 * };
 * ```
 */
export type WebhookHandler<P extends WebhookPayload = WebhookPayload> = (
  payload: P,
  context: WebhookContext,
) => unknown;

/**
 * One handler per webhook type, each with its payload narrowed to that type.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookHandlers } from "messaging-events/webhooks";
 *
 * const on: WebhookHandlers = {
 *   "s.room.create": (payload) => console.log(payload.content.creatorId),
 * };
 * ```
 */
export type WebhookHandlers = {
  readonly [T in WebhookEventType]?: WebhookHandler<Extract<WebhookPayload, { type: T }>>;
};

/**
 * What `onError` is told besides the error: as much as was known when it happened.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookErrorContext } from "messaging-events/webhooks";
 *
 * const label = (context: WebhookErrorContext) => `${context.status} ${context.payload?.type ?? "unverified"}`;
 * ```
 */
export interface WebhookErrorContext {
  /** The status answered: the error's own, or 204 when the handler succeeded but its completion could not be stored. */
  readonly status: number;
  /** The `service-webhook-id`, when the request had one (it is not authenticated before verification). */
  readonly deliveryId: string | undefined;
  /** The payload, once verified and valid. */
  readonly payload: WebhookPayload | undefined;
}

/**
 * The options of `createWebhookReceiver`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookReceiverOptions } from "messaging-events/webhooks";
 *
 * const options: WebhookReceiverOptions = {
 *   secret: "whsec_test",
 *   on: { "s.message.text": (payload) => console.log(payload.content.body) },
 * };
 * ```
 */
export interface WebhookReceiverOptions extends WebhookReplayGuardOptions {
  /**
   * The signing secret, or a list of secrets (newest first) of which any one may match: during a
   * rotation, add the new one in front and drop the old one once the sender uses the new one.
   */
  readonly secret: WebhookSecret | readonly WebhookSecret[];
  /** The handlers, one per webhook type, each with its payload narrowed to that type. */
  readonly on?: WebhookHandlers;
  /**
   * The handler of every type that has none in `on`. A webhook with neither is acknowledged (204)
   * without any code running.
   */
  readonly onAny?: WebhookHandler;
  /**
   * Told of every failure: each non-2xx answer (with the error that chose its status) and a handled
   * webhook whose completion could not be stored. Its own failures are ignored.
   */
  readonly onError?: (error: WebhookVerificationError, context: WebhookErrorContext) => void;
  /**
   * How far `service-timestamp` may lie from now, either way, in milliseconds. The same window
   * bounds how long an exact replay is remembered: there is no second setting.
   * @default 300_000 (5 minutes)
   */
  readonly toleranceMs?: number;
  /**
   * The largest body read, in bytes: a larger one is answered 413 without reading the rest.
   * @default 1_048_576 (1 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * How long reading the body may take, in milliseconds: past it, 408.
   * @default 30_000 (30 s)
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Traces every webhook: `createOpenTelemetry()` from `messaging-events/opentelemetry` records a
   * span per webhook with its outcome code, status, type and delivery id (never the secret, the
   * signature or the body), and runs your handler within it. Without it nothing is traced and
   * nothing of OpenTelemetry is loaded. It never changes an answer.
   */
  readonly telemetry?: WebhookTelemetry;
}
