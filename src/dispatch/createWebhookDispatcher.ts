import { exponentialDelay, jitter } from "../internal/backoff.js";
import { quote } from "../internal/describe.js";
import { errorTypeOf } from "../internal/errorType.js";
import { sleep } from "../internal/sleep.js";
import { urlWithoutQuery } from "../internal/urlWithoutQuery.js";
import { createWebhookSigner, type WebhookSigner } from "../webhooks/createWebhookSigner.js";
import type { WebhookSecret } from "../webhooks/WebhookSecret.js";
import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";
import { buildWebhookPayload } from "./buildWebhookPayload.js";
import { type CheckedEndpoint, MAX_ENDPOINTS } from "./checkEndpoints.js";
import type { MemoryDeliveryQueue } from "./createMemoryDeliveryQueue.js";
import type { AttemptResponse, DeadDelivery, DeliveryLease, QueuedDelivery } from "./DeliveryQueue.js";
import { DispatchError, isDispatchError } from "./DispatchError.js";
import type { DispatchInput } from "./DispatchInput.js";
import { EndpointPacing } from "./EndpointPacing.js";
import { createEndpointGate, type GateTicket } from "./endpointGate.js";
import { normalizeDispatcherOptions } from "./normalizeDispatcherOptions.js";
import { retryDelay } from "./retryDelay.js";
import { sendAttempt } from "./sendAttempt.js";
import type {
  CircuitState,
  DeliveryAttempt,
  EndpointDisabledReason,
  WebhookDispatcherOptions,
} from "./WebhookDispatcherOptions.js";
import type { WebhookDispatcherTelemetry } from "./WebhookDispatcherTelemetry.js";

/** The telemetry of one dispatcher, and the trace of one attempt, as its telemetry gives them. */
type DispatcherTrace = ReturnType<WebhookDispatcherTelemetry["startDispatcher"]>;
type AttemptTrace = ReturnType<DispatcherTrace["startAttempt"]>;
type DispatchTrace = ReturnType<DispatcherTrace["startDispatch"]>;

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

/** Calls a hook; what it throws or rejects with is dropped, so a hook cannot stop delivery. */
function callHook<A extends unknown[]>(hook: ((...args: A) => unknown) | undefined, ...args: A): void {
  if (hook === undefined) return;
  try {
    const result = hook(...args);
    if (
      typeof result === "object" &&
      result !== null &&
      typeof (result as Promise<void>).then === "function"
    ) {
      (result as Promise<void>).then(undefined, () => undefined);
    }
  } catch {}
}

const errorMessage = (error: unknown): string =>
  isDispatchError(error) ? error.message : "the endpoint could not be looked up or the request signed";

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
  // One signal per worker, all aborted by close(): one shared signal with a listener per waiting
  // worker would pass Node's limit of ten listeners (a leak warning) at the default concurrency.
  const stops = new Set<AbortController>();
  let stopping = false;
  const disabled = new Map<string, EndpointDisabledReason>();
  const failingSince = new Map<string, number>();
  const signers = new Map<string, { readonly secret: WebhookSecret; readonly signer: WebhookSigner }>();
  // The endpoints last read, to hand hooks what the caller gave for an id.
  let known: ReadonlyMap<string, CheckedEndpoint> = new Map();
  const gate = createEndpointGate({
    breaker: settings.circuitBreaker,
    onCircuitChange: (endpointId, state, reopensAt) => {
      const endpoint = known.get(endpointId);
      if (endpoint !== undefined) callHook(settings.onCircuitChange, endpoint.source, state, reopensAt);
    },
  });
  const endpointsNow = async () => {
    known = await settings.endpoints();
    return known;
  };
  let closing: Promise<void> | undefined;
  const pacing = new EndpointPacing(settings.concurrency, settings.timeoutMs);
  const limitOf = (endpoint: CheckedEndpoint): number => endpoint.concurrency ?? settings.endpointConcurrency;

  const signerFor = (endpoint: CheckedEndpoint): WebhookSigner => {
    const cached = signers.get(endpoint.id);
    if (cached !== undefined && cached.secret === endpoint.secret) return cached.signer;
    const signer = createWebhookSigner({ secret: endpoint.secret, encoding: settings.encoding });
    signers.set(endpoint.id, { secret: endpoint.secret, signer });
    return signer;
  };

  const disable = (endpoint: CheckedEndpoint, reason: EndpointDisabledReason) => {
    if (disabled.has(endpoint.id)) return;
    disabled.set(endpoint.id, reason);
    failingSince.delete(endpoint.id);
    gate.forget(endpoint.id);
    telemetry?.endpointDisabled({ endpointId: endpoint.id, reason });
    callHook(settings.onEndpointDisabled, endpoint.source, reason);
  };

  /**
   * One attempt of one lease, start to finish (or its parking or deferral, when the endpoint may not
   * be tried now); resolves to the id of the endpoint whose slot it freed, if it made an attempt.
   * Never throws.
   */
  const attempt = async (lease: DeliveryLease): Promise<string | undefined> => {
    const { delivery } = lease;
    const number = lease.attempts + 1;
    let started = Date.now();
    let timestamp = "";
    let status: number | undefined;
    let response: AttemptResponse | undefined;
    let reason: string;
    let retryAfterMs: number | undefined;
    let final = false;
    let ticket: GateTicket | undefined;
    let inFlight: { readonly id: string; readonly at: number } | undefined;
    let trace: AttemptTrace | undefined;
    let errorType: string | undefined;
    try {
      const endpoint = (await endpointsNow()).get(delivery.endpointId);
      if (endpoint === undefined) {
        reason = `the endpoint ${quote(delivery.endpointId)} is no longer configured`;
        errorType = "endpoint_removed";
        final = true;
      } else if (disabled.has(endpoint.id)) {
        reason = `the endpoint ${quote(endpoint.id)} is disabled`;
        errorType = "endpoint_disabled";
        final = true;
      } else {
        const verdict = gate.admit(
          endpoint.id,
          {
            concurrency: limitOf(endpoint),
            ratePerSecond: endpoint.ratePerSecond,
          },
          Date.now(),
        );
        if (!verdict.admitted) {
          // Busy: the delivery waits here, without a worker, for the next free slot of its endpoint,
          // so that a busy endpoint's pipeline stays full. Beyond what may wait, or rate-limited, or
          // its circuit open, it goes back to the queue unattempted; a busy endpoint whose attempts
          // have been running long (hanging) is asked again only after as long.
          if (verdict.why === "concurrency" && pacing.park(endpoint.id, lease)) return undefined;
          const dueAt =
            verdict.why === "concurrency"
              ? Date.now() + pacing.busyFor(endpoint.id, limitOf(endpoint))
              : verdict.retryAt;
          await queue.defer(lease, dueAt).catch(() => undefined);
          return undefined;
        }
        ticket = verdict.ticket;
        started = Date.now();
        pacing.started(endpoint.id, started);
        inFlight = { id: endpoint.id, at: started };
        trace = telemetry === undefined ? undefined : startTrace(lease, tracedUrl(endpoint.url));
        const traced = trace;
        const result = await sendAttempt({
          fetch: settings.fetch,
          checkFirst: settings.checkBeforeSending ? settings.destinations.lookup : undefined,
          url: endpoint.url,
          headers: endpoint.headers,
          body: delivery.body,
          deliveryId: delivery.id,
          signer: signerFor(endpoint),
          timeoutMs: settings.timeoutMs,
          run: traced === undefined ? undefined : (fn) => traced.run(fn),
        });
        ({ timestamp, status, retryAfterMs, response, errorType } = result);
        if (result.outcome === "delivered") {
          ticket.finish("success");
          ticket = undefined;
          failingSince.delete(endpoint.id);
          await queue.complete(lease);
          report({ lease, trace, timestamp, status, response, started, outcome: "delivered" });
          return endpoint.id;
        }
        ticket.finish("failure");
        ticket = undefined;
        reason = result.reason ?? "failed";
        if (result.outcome === "gone") {
          disable(endpoint, "gone");
          final = true;
        } else {
          const since = failingSince.get(endpoint.id) ?? started;
          failingSince.set(endpoint.id, since);
          if (Date.now() - since >= settings.disableAfterMs) {
            disable(endpoint, "failing");
            reason = `${reason}; the endpoint failed without a success for ${settings.disableAfterMs} ms and is disabled`;
            final = true;
          }
        }
      }
    } catch (error) {
      // The endpoints function failed, or signing did: not the receiver's fault, but an attempt all the same.
      reason = errorMessage(error);
      errorType = errorTypeOf(error);
    } finally {
      if (inFlight !== undefined) pacing.stopped(inFlight.id, inFlight.at);
      ticket?.finish("failure");
    }
    const delay = final ? undefined : retryDelay({ retry: settings.retry, attempts: number, retryAfterMs });
    try {
      if (delay === undefined) {
        await queue.dead(lease, reason, response);
        report({ lease, trace, timestamp, status, response, started, outcome: "dead", reason, errorType });
        telemetry?.deliveryDead({ eventType: delivery.type, endpointId: delivery.endpointId });
        const dead: DeadDelivery = {
          ...delivery,
          attempts: number,
          reason,
          diedAt: Date.now(),
          ...(response === undefined ? {} : { lastResponse: response }),
        };
        callHook(settings.onDead, dead);
      } else {
        const retryAt = Date.now() + delay;
        await queue.retry(lease, retryAt, reason);
        report({
          lease,
          trace,
          timestamp,
          status,
          response,
          started,
          outcome: "retry",
          reason,
          errorType,
          retryAt,
        });
      }
    } catch {
      // The queue failed to record the outcome: the lock expires and the delivery is handed out again.
      trace?.end({ status, outcome: "retry", errorType: "queue_failed", durationMs: Date.now() - started });
    }
    return inFlight?.id;
  };

  // What telemetry sees of each endpoint's URL (never its query), worked out once per URL.
  const tracedUrls = new Map<string, string | undefined>();
  const tracedUrl = (url: string): string | undefined => {
    if (!tracedUrls.has(url)) {
      if (tracedUrls.size >= MAX_ENDPOINTS) tracedUrls.clear();
      tracedUrls.set(url, urlWithoutQuery(url));
    }
    return tracedUrls.get(url);
  };

  /** The trace of an attempt of `lease` to `url` (`undefined` when it failed before one was known). */
  const startTrace = (lease: DeliveryLease, url: string | undefined): AttemptTrace | undefined => {
    const { delivery } = lease;
    return telemetry?.startAttempt({
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      endpointId: delivery.endpointId,
      eventType: delivery.type,
      attempt: lease.attempts + 1,
      url,
      trace: delivery.trace,
    });
  };

  const report = (done: {
    lease: DeliveryLease;
    trace: AttemptTrace | undefined;
    timestamp: string;
    status: number | undefined;
    response: AttemptResponse | undefined;
    started: number;
    outcome: DeliveryAttempt["outcome"];
    reason?: string;
    errorType?: string | undefined;
    retryAt?: number;
  }) => {
    const { delivery } = done.lease;
    const durationMs = Date.now() - done.started;
    // An attempt that failed before anything was sent still gets its trace, with no URL.
    (done.trace ?? startTrace(done.lease, undefined))?.end({
      status: done.status,
      outcome: done.outcome,
      errorType: done.errorType,
      durationMs,
    });
    callHook(settings.onAttempt, {
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      endpointId: delivery.endpointId,
      type: delivery.type,
      attempt: done.lease.attempts + 1,
      timestamp: done.timestamp,
      status: done.status,
      response: done.response,
      outcome: done.outcome,
      reason: done.reason,
      retryAt: done.retryAt,
      durationMs,
    });
  };

  const work = async (): Promise<void> => {
    const own = new AbortController();
    if (stopping) own.abort();
    stops.add(own);
    const { signal } = own;
    let failures = 0;
    while (!signal.aborted) {
      let lease: DeliveryLease | undefined;
      try {
        lease = await queue.take({ signal });
        failures = 0;
      } catch {
        // The queue is unavailable (Redis down): wait a little longer each time (200 ms, doubling up
        // to 5 s, spread so that workers do not ask all at once), then ask again.
        failures++;
        await sleep(jitter(exponentialDelay(failures, 100, 5_000), 0.2), signal).catch(() => undefined);
        continue;
      }
      if (lease === undefined) return;
      if (signal.aborted) {
        await queue.release(lease).catch(() => undefined);
        return;
      }
      // A freed slot goes to a delivery parked for it, while there is one.
      for (let freed = await attempt(lease); freed !== undefined && !signal.aborted; ) {
        const next = pacing.unpark(freed, (late) => queue.release(late).catch(() => undefined));
        if (next === undefined) break;
        freed = await attempt(next);
      }
    }
  };

  const workers = settings.deliver ? Array.from({ length: settings.concurrency }, work) : [];

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
    let endpoints: ReadonlyMap<string, CheckedEndpoint>;
    try {
      endpoints = await endpointsNow();
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
    for (const endpoint of endpoints.values()) {
      if (disabled.has(endpoint.id)) continue;
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
    disabledEndpoints: () => new Map(disabled),
    enableEndpoint(endpointId) {
      disabled.delete(endpointId);
      failingSince.delete(endpointId);
      gate.forget(endpointId);
    },
    circuitState: (endpointId) => gate.state(endpointId),
    close() {
      closing ??= (async () => {
        stopping = true;
        for (const own of stops) own.abort();
        await Promise.all(workers);
        // Parked deliveries were never attempted: they go back to the queue, due at once.
        const waiting = pacing.drain();
        await Promise.all(waiting.map((lease) => queue.release(lease).catch(() => undefined)));
        telemetry?.close();
        if (settings.ownsQueue) await queue.close();
      })();
      return closing;
    },
  };
}
