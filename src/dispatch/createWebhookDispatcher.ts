import { errorTypeOf } from "../internal/errorType.js";
import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";
import { buildWebhookPayload } from "./buildWebhookPayload.js";
import type { CheckedEndpoint } from "./checkEndpoints.js";
import type { MemoryDeliveryQueue } from "./createMemoryDeliveryQueue.js";
import type { DeadDelivery, QueuedDelivery } from "./DeliveryQueue.js";
import { DispatchError, isDispatchError } from "./DispatchError.js";
import type { DispatchInput } from "./DispatchInput.js";
import { startDeliveryWorkers } from "./deliveryWorkers.js";
import { createDispatcherEndpoints } from "./dispatcherEndpoints.js";
import type { DispatcherTrace, DispatchTrace } from "./dispatcherTrace.js";
import { normalizeDispatcherOptions } from "./normalizeDispatcherOptions.js";
import type {
  CircuitState,
  EndpointDisabledReason,
  WebhookDispatcherOptions,
} from "./WebhookDispatcherOptions.js";

/**
 * What `dispatch` enqueued: the event's id and one delivery per endpoint, whose `id` every attempt
 * carries in the `service-webhook-id` header.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { DispatchResult } from "messaging-events/dispatch";
 *
 * const ids = (result: DispatchResult) => result.deliveries.map((delivery) => `${delivery.endpointId}: ${delivery.id}`);
 * ```
 */
export interface DispatchResult {
  /** The id shared by this event's deliveries. */
  readonly eventId: string;
  /** One per endpoint that is not disabled. */
  readonly deliveries: readonly { readonly id: string; readonly endpointId: string }[];
}

/**
 * A webhook dispatcher: see {@link createWebhookDispatcher}.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createWebhookDispatcher, type WebhookDispatcher } from "messaging-events/dispatch";
 *
 * const dispatcher: WebhookDispatcher = createWebhookDispatcher({ endpoints: [] });
 * await dispatcher.close();
 * ```
 */
export interface WebhookDispatcher {
  /**
   * Builds, validates and serialises the payload, then enqueues one delivery per endpoint (disabled
   * ones aside) and resolves to their ids. It does not wait for delivery.
   */
  dispatch(input: DispatchInput): Promise<DispatchResult>;
  /** The dead deliveries kept by the queue, oldest first, at most `limit` (100 by default). */
  deadDeliveries(options?: { readonly limit?: number }): Promise<DeadDelivery[]>;
  /** Makes a dead delivery due again, with a fresh schedule; `false` when there is no such dead delivery. */
  replay(deliveryId: string): Promise<boolean>;
  /** The endpoints this process disabled, and why. */
  disabledEndpoints(): ReadonlyMap<string, EndpointDisabledReason>;
  /** Enables an endpoint this process disabled (replay its dead deliveries afterwards if you want them). */
  enableEndpoint(endpointId: string): void;
  /** The state of an endpoint's circuit breaker in this process (`"closed"` for one never seen). */
  circuitState(endpointId: string): CircuitState;
  /**
   * Stops taking deliveries, waits for the attempts in flight to finish, and closes the queue if the
   * dispatcher created it. Idempotent; `dispatch` rejects with `ERR_DISPATCH_CLOSED` afterwards.
   */
  close(): Promise<void>;
}

/**
 * Creates a webhook dispatcher: it sends each event of the seven webhook types to every endpoint
 * the way the service does, and retries until delivered or dead.
 *
 * - `dispatch(input)` builds the version-2 payload (from a payload, or from `{ event, roomId, … }`),
 *   validates it, serialises it once, refuses it above `maxPayloadBytes`, and enqueues one delivery
 *   per endpoint, each with its own id;
 * - every attempt is signed afresh: a new `service-timestamp` (`toISOString()`), the HMAC-SHA-512
 *   signature of `<timestamp>:<body>` with the endpoint's newest secret, the same body bytes,
 *   `content-type: application/json`, and `service-webhook-id: <delivery id>`, which is the same on
 *   every attempt and is **not** covered by the signature;
 * - a 2xx is delivered; a 3xx is a failure (redirects are never followed); 410 disables the endpoint
 *   and kills the delivery; a 429 or 503 `Retry-After` is honoured within bounds; a time-out
 *   (`timeoutMs`) aborts the request; network errors and other statuses are failures, retried after
 *   the waits of `retry.delaysMs` (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each
 *   ±20%), after which the delivery is dead: kept, listed by `deadDeliveries()`, replayable with
 *   `replay(id)`;
 * - an endpoint failing without a single success for `disableAfterMs` (5 days by default) is
 *   disabled.
 *
 * Delivery is at least once: a receiver may see a delivery twice (a lost response, a crashed worker),
 * so receivers should de-duplicate by `service-webhook-id`. Throws a `TypeError` at once for an
 * invalid option.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { createWebhookDispatcher } from "messaging-events/dispatch";
 *
 * const dispatcher = createWebhookDispatcher({
 *   endpoints: [{ id: "acme", url: "https://acme.example/hooks/messaging", secret: "s3cr3t" }],
 *   // A stand-in for the receiver, so that this example runs anywhere.
 *   fetch: async () => new Response(null, { status: 204 }),
 *   onAttempt: (attempt) => console.log(attempt.endpointId, attempt.status, attempt.outcome), // acme 204 delivered
 * });
 * const { deliveries } = await dispatcher.dispatch({
 *   event: { type: "s.message.text", content: { body: "Hello" } },
 *   roomId: "room-42",
 * });
 * console.log(deliveries.length); // 1
 * await dispatcher.close(); // lets the attempt in flight finish
 * ```
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const settings = normalizeDispatcherOptions(options);
  const { queue } = settings;
  // The queue's depth is observed where the queue can tell it (the memory queue's counts()).
  const counts = (queue as Partial<MemoryDeliveryQueue>).counts;
  const telemetry: DispatcherTrace | undefined = settings.telemetry?.startDispatcher({
    queueDepth: typeof counts === "function" ? () => counts.call(queue) : undefined,
  });
  const endpoints = createDispatcherEndpoints(settings, telemetry);
  let closing: Promise<void> | undefined;
  const workers = startDeliveryWorkers(settings, endpoints, telemetry);

  /** Throws `ERR_DISPATCH_CLOSED` once `close()` has been called. */
  const open = () => {
    if (closing !== undefined) throw new DispatchError("ERR_DISPATCH_CLOSED", "the dispatcher is closed");
  };
  /** Enqueues one delivery per endpoint, each with the trace context of its dispatch if there is one. */
  const enqueue = async (
    input: DispatchInput,
    trace: DispatchTrace | undefined,
    built: (type: WebhookEventType) => void,
  ): Promise<DispatchResult> => {
    open();
    const { type, body } = buildWebhookPayload(input);
    built(type);
    // Each UTF-16 unit is 1 to 3 UTF-8 bytes: encode only when the length alone cannot tell.
    const max = settings.maxPayloadBytes;
    const tooLong = body.length > max;
    if (tooLong || (body.length * 3 > max && new TextEncoder().encode(body).byteLength > max)) {
      throw new DispatchError(
        "ERR_DISPATCH_PAYLOAD_TOO_LARGE",
        `the payload is longer than maxPayloadBytes (${max} bytes of UTF-8); receivers would refuse it`,
      );
    }
    let current: ReadonlyMap<string, CheckedEndpoint>;
    try {
      current = await endpoints.current();
    } catch (error) {
      if (isDispatchError(error)) throw error;
      throw new DispatchError("ERR_DISPATCH_ENDPOINTS_FAILED", "the endpoints function failed", {
        cause: error,
      });
    }
    const eventId = crypto.randomUUID();
    const createdAt = Date.now();
    const given = trace?.trace;
    const context = typeof given === "object" && given !== null ? given : undefined;
    const deliveries: QueuedDelivery[] = [];
    for (const endpoint of current.values()) {
      if (endpoints.disabled.has(endpoint.id)) continue;
      if (endpoint.types !== undefined && !endpoint.types.has(type)) continue;
      const delivery = { id: crypto.randomUUID(), eventId, endpointId: endpoint.id, type, body, createdAt };
      deliveries.push(context === undefined ? delivery : { ...delivery, trace: context });
    }
    open();
    try {
      await queue.add(deliveries);
    } catch (error) {
      if (isDispatchError(error)) throw error;
      throw new DispatchError(
        "ERR_DISPATCH_QUEUE_FAILED",
        "the delivery queue failed to store the deliveries",
        {
          cause: error,
        },
      );
    }
    return { eventId, deliveries: deliveries.map(({ id, endpointId }) => ({ id, endpointId })) };
  };

  return {
    async dispatch(input) {
      const trace = telemetry?.startDispatch();
      if (trace === undefined) return enqueue(input, undefined, () => undefined);
      let eventType: WebhookEventType | undefined;
      const built = (type: WebhookEventType) => {
        eventType = type;
      };
      try {
        const result = await trace.run(() => enqueue(input, trace, built));
        trace.end({ eventType, deliveries: result.deliveries.length, errorType: undefined });
        return result;
      } catch (error) {
        trace.end({ eventType, deliveries: 0, errorType: errorTypeOf(error) });
        throw error;
      }
    },
    deadDeliveries: (listOptions) => queue.listDead(listOptions),
    replay: (deliveryId) => queue.replay(deliveryId),
    disabledEndpoints: () => new Map(endpoints.disabled),
    enableEndpoint: (endpointId) => endpoints.enable(endpointId),
    circuitState: (endpointId) => endpoints.gate.state(endpointId),
    close() {
      closing ??= (async () => {
        await workers.stop();
        telemetry?.close();
        if (settings.ownsQueue) await queue.close();
      })();
      return closing;
    },
  };
}
