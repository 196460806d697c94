import { exponentialDelay, jitter } from "../internal/backoff.js";
import { sleep } from "../internal/sleep.js";
import { type AttemptContext, attemptLease } from "./attemptLease.js";
import { createAttemptReporter } from "./attemptReport.js";
import type { DeliveryLease } from "./DeliveryQueue.js";
import type { DispatcherEndpoints } from "./dispatcherEndpoints.js";
import type { DispatcherTrace } from "./dispatcherTrace.js";
import { EndpointPacing } from "./EndpointPacing.js";
import type { NormalizedDispatcherOptions } from "./normalizeDispatcherOptions.js";

/** The workers of one dispatcher: see {@link startDeliveryWorkers}. */
export interface DeliveryWorkers {
  /**
   * Stops taking leases, waits for the attempts in flight to finish, and gives the parked deliveries
   * (never attempted) back to the queue, due at once.
   */
  stop(): Promise<void>;
}

/**
 * Starts the workers of a dispatcher (`concurrency` of them; none unless `deliver`): each takes a
 * lease from the queue and attempts it, then the deliveries parked for the endpoint slot it freed,
 * until stopped. A worker whose queue is unavailable asks again after a growing wait.
 */
export function startDeliveryWorkers(
  settings: NormalizedDispatcherOptions,
  endpoints: DispatcherEndpoints,
  telemetry: DispatcherTrace | undefined,
): DeliveryWorkers {
  const { queue } = settings;
  const pacing = new EndpointPacing(settings.concurrency, settings.timeoutMs);
  const reporter = createAttemptReporter(telemetry, settings.onAttempt);
  const context: AttemptContext = { settings, endpoints, pacing, reporter, telemetry };
  /** One attempt of one lease: see {@link attemptLease}. */
  const attempt = (lease: DeliveryLease) => attemptLease(context, lease);
  // One signal per worker, all aborted by stop(): one shared signal with a listener per waiting
  // worker would pass Node's limit of ten listeners (a leak warning) at the default concurrency.
  const stops = new Set<AbortController>();
  let stopping = false;

  /** One worker: takes leases and attempts them until its signal is aborted or the queue is closed. */
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

  return {
    async stop() {
      stopping = true;
      for (const own of stops) own.abort();
      await Promise.all(workers);
      // Parked deliveries were never attempted: they go back to the queue, due at once.
      const waiting = pacing.drain();
      await Promise.all(waiting.map((lease) => queue.release(lease).catch(() => undefined)));
    },
  };
}
