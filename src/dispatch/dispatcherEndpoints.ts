import { callHook } from "../internal/callHook.js";
import { createWebhookSigner, type WebhookSigner } from "../webhooks/createWebhookSigner.js";
import type { WebhookSecret } from "../webhooks/WebhookSecret.js";
import type { CheckedEndpoint } from "./checkEndpoints.js";
import type { DispatcherTrace } from "./dispatcherTrace.js";
import { createEndpointGate, type EndpointGate } from "./endpointGate.js";
import type { NormalizedDispatcherOptions } from "./normalizeDispatcherOptions.js";
import type { EndpointDisabledReason } from "./WebhookDispatcherOptions.js";

/** The endpoints as one dispatcher sees them: see {@link createDispatcherEndpoints}. */
export interface DispatcherEndpoints {
  /** The current endpoints, checked, by id: read afresh on every call, and remembered for the hooks. */
  current(): Promise<ReadonlyMap<string, CheckedEndpoint>>;
  /** Decides, per endpoint, whether an attempt may start now (concurrency, rate, circuit breaker). */
  readonly gate: EndpointGate;
  /** The endpoints this process disabled, and why. */
  readonly disabled: ReadonlyMap<string, EndpointDisabledReason>;
  /** The most attempts in flight to an endpoint at once: its `concurrency`, else `endpointConcurrency`. */
  limitOf(endpoint: CheckedEndpoint): number;
  /** The signer of an endpoint's current secret, made once per secret. */
  signerFor(endpoint: CheckedEndpoint): WebhookSigner;
  /** Notes an attempt delivered: the endpoint is no longer failing. */
  succeeded(endpointId: string): void;
  /**
   * Notes an attempt failed that started at `startedAt`; when the endpoint has now failed without a
   * success for `disableAfterMs`, disables it and returns `true`.
   */
  failed(endpoint: CheckedEndpoint, startedAt: number): boolean;
  /** Disables an endpoint (once), and tells the telemetry and `onEndpointDisabled`. */
  disable(endpoint: CheckedEndpoint, reason: EndpointDisabledReason): void;
  /** Enables an endpoint this process disabled, its failures and its circuit forgotten. */
  enable(endpointId: string): void;
}

/**
 * Keeps the endpoints as one dispatcher sees them: reads them (remembering the last read, so that
 * hooks are handed what the caller gave for an id), signs for them, gates their attempts, and
 * disables those that are gone or fail without a success for `disableAfterMs`.
 */
export function createDispatcherEndpoints(
  settings: NormalizedDispatcherOptions,
  telemetry: DispatcherTrace | undefined,
): DispatcherEndpoints {
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

  /** Disables an endpoint (once), and tells the telemetry and `onEndpointDisabled`. */
  const disable = (endpoint: CheckedEndpoint, reason: EndpointDisabledReason) => {
    if (disabled.has(endpoint.id)) return;
    disabled.set(endpoint.id, reason);
    failingSince.delete(endpoint.id);
    gate.forget(endpoint.id);
    telemetry?.endpointDisabled({ endpointId: endpoint.id, reason });
    callHook(settings.onEndpointDisabled, endpoint.source, reason);
  };

  return {
    async current() {
      known = await settings.endpoints();
      return known;
    },
    gate,
    disabled,
    limitOf: (endpoint) => endpoint.concurrency ?? settings.endpointConcurrency,
    signerFor(endpoint) {
      const cached = signers.get(endpoint.id);
      if (cached !== undefined && cached.secret === endpoint.secret) return cached.signer;
      const signer = createWebhookSigner({ secret: endpoint.secret, encoding: settings.encoding });
      signers.set(endpoint.id, { secret: endpoint.secret, signer });
      return signer;
    },
    succeeded(endpointId) {
      failingSince.delete(endpointId);
    },
    failed(endpoint, startedAt) {
      const since = failingSince.get(endpoint.id) ?? startedAt;
      failingSince.set(endpoint.id, since);
      if (Date.now() - since >= settings.disableAfterMs) {
        disable(endpoint, "failing");
        return true;
      }
      return false;
    },
    disable,
    enable(endpointId) {
      disabled.delete(endpointId);
      failingSince.delete(endpointId);
      gate.forget(endpointId);
    },
  };
}
