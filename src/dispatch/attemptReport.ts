import { callHook } from "../internal/callHook.js";
import { urlWithoutQuery } from "../internal/urlWithoutQuery.js";
import { MAX_ENDPOINTS } from "./checkEndpoints.js";
import type { AttemptResponse, DeliveryLease } from "./DeliveryQueue.js";
import type { AttemptTrace, DispatcherTrace } from "./dispatcherTrace.js";
import type { NormalizedDispatcherOptions } from "./normalizeDispatcherOptions.js";
import type { DeliveryAttempt } from "./WebhookDispatcherOptions.js";

/** How one attempt ended, as {@link AttemptReporter.report} is told it. */
export interface AttemptDone {
  readonly lease: DeliveryLease;
  /** The attempt's trace, `undefined` when it failed before one was started. */
  readonly trace: AttemptTrace | undefined;
  /** The `service-timestamp` it was signed with (`""` when it was not sent). */
  readonly timestamp: string;
  readonly status: number | undefined;
  readonly response: AttemptResponse | undefined;
  /** When it started, in epoch milliseconds. */
  readonly started: number;
  readonly outcome: DeliveryAttempt["outcome"];
  readonly reason?: string;
  readonly errorType?: string | undefined;
  readonly retryAt?: number;
}

/** Traces the attempts of one dispatcher and reports how they ended: see {@link createAttemptReporter}. */
export interface AttemptReporter {
  /** The trace of an attempt of `lease` to `url` (never shown its query); `undefined` without telemetry. */
  traceAttempt(lease: DeliveryLease, url: string): AttemptTrace | undefined;
  /**
   * Ends the attempt's trace (one without a URL when it failed before anything was sent) and tells
   * `onAttempt` how it went.
   */
  report(done: AttemptDone): void;
}

/** Makes what traces the attempts of a dispatcher (with `telemetry`) and reports them to `onAttempt`. */
export function createAttemptReporter(
  telemetry: DispatcherTrace | undefined,
  onAttempt: NormalizedDispatcherOptions["onAttempt"],
): AttemptReporter {
  // What telemetry sees of each endpoint's URL (never its query), worked out once per URL.
  const tracedUrls = new Map<string, string | undefined>();
  /** What telemetry sees of `url`: it without its query, from a cache of at most `MAX_ENDPOINTS` URLs. */
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

  return {
    traceAttempt: (lease, url) => (telemetry === undefined ? undefined : startTrace(lease, tracedUrl(url))),
    report(done) {
      const { delivery } = done.lease;
      const durationMs = Date.now() - done.started;
      // An attempt that failed before anything was sent still gets its trace, with no URL.
      (done.trace ?? startTrace(done.lease, undefined))?.end({
        status: done.status,
        outcome: done.outcome,
        errorType: done.errorType,
        durationMs,
      });
      callHook(onAttempt, {
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
    },
  };
}
