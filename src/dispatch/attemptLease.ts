import { callHook } from "../internal/callHook.js";
import { quote } from "../internal/describe.js";
import { errorTypeOf } from "../internal/errorType.js";
import type { AttemptReporter } from "./attemptReport.js";
import type { AttemptResponse, DeadDelivery, DeliveryLease } from "./DeliveryQueue.js";
import { isDispatchError } from "./DispatchError.js";
import type { DispatcherEndpoints } from "./dispatcherEndpoints.js";
import type { AttemptTrace, DispatcherTrace } from "./dispatcherTrace.js";
import type { EndpointPacing } from "./EndpointPacing.js";
import type { GateTicket } from "./endpointGate.js";
import type { NormalizedDispatcherOptions } from "./normalizeDispatcherOptions.js";
import { retryDelay } from "./retryDelay.js";
import { sendAttempt } from "./sendAttempt.js";

/** What the attempts of one dispatcher share. */
export interface AttemptContext {
  readonly settings: NormalizedDispatcherOptions;
  readonly endpoints: DispatcherEndpoints;
  /** Where deliveries wait for a slot of their busy endpoint, and how long that endpoint's attempts take. */
  readonly pacing: EndpointPacing;
  readonly reporter: AttemptReporter;
  readonly telemetry: DispatcherTrace | undefined;
}

/** Why an attempt failed before anything was sent: a `DispatchError`'s message, else a fixed sentence. */
const errorMessage = (error: unknown): string =>
  isDispatchError(error) ? error.message : "the endpoint could not be looked up or the request signed";

/**
 * One attempt of one lease, start to finish (or its parking or deferral, when the endpoint may not
 * be tried now); resolves to the id of the endpoint whose slot it freed, if it made an attempt.
 * Never throws.
 */
export async function attemptLease(
  context: AttemptContext,
  lease: DeliveryLease,
): Promise<string | undefined> {
  const { settings, endpoints, pacing, reporter, telemetry } = context;
  const { queue } = settings;
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
    const endpoint = (await endpoints.current()).get(delivery.endpointId);
    if (endpoint === undefined) {
      reason = `the endpoint ${quote(delivery.endpointId)} is no longer configured`;
      errorType = "endpoint_removed";
      final = true;
    } else if (endpoints.disabled.has(endpoint.id)) {
      reason = `the endpoint ${quote(endpoint.id)} is disabled`;
      errorType = "endpoint_disabled";
      final = true;
    } else {
      const verdict = endpoints.gate.admit(
        endpoint.id,
        {
          concurrency: endpoints.limitOf(endpoint),
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
            ? Date.now() + pacing.busyFor(endpoint.id, endpoints.limitOf(endpoint))
            : verdict.retryAt;
        await queue.defer(lease, dueAt).catch(() => undefined);
        return undefined;
      }
      ticket = verdict.ticket;
      started = Date.now();
      pacing.started(endpoint.id, started);
      inFlight = { id: endpoint.id, at: started };
      trace = reporter.traceAttempt(lease, endpoint.url);
      const traced = trace;
      const result = await sendAttempt({
        fetch: settings.fetch,
        checkFirst: settings.checkBeforeSending ? settings.destinations.lookup : undefined,
        url: endpoint.url,
        headers: endpoint.headers,
        body: delivery.body,
        deliveryId: delivery.id,
        signer: endpoints.signerFor(endpoint),
        timeoutMs: settings.timeoutMs,
        run: traced === undefined ? undefined : (fn) => traced.run(fn),
      });
      ({ timestamp, status, retryAfterMs, response, errorType } = result);
      if (result.outcome === "delivered") {
        ticket.finish("success");
        ticket = undefined;
        endpoints.succeeded(endpoint.id);
        await queue.complete(lease);
        reporter.report({ lease, trace, timestamp, status, response, started, outcome: "delivered" });
        return endpoint.id;
      }
      ticket.finish("failure");
      ticket = undefined;
      reason = result.reason ?? "failed";
      if (result.outcome === "gone") {
        endpoints.disable(endpoint, "gone");
        final = true;
      } else if (endpoints.failed(endpoint, started)) {
        reason = `${reason}; the endpoint failed without a success for ${settings.disableAfterMs} ms and is disabled`;
        final = true;
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
      reporter.report({
        lease,
        trace,
        timestamp,
        status,
        response,
        started,
        outcome: "dead",
        reason,
        errorType,
      });
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
      reporter.report({
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
}
