import { guardTelemetry } from "../internal/guardTelemetry.js";
import { type InternalRetryOptions, normalizeRetryOptions } from "../internal/normalizeRetryOptions.js";
import { ownOptions } from "../internal/ownOptions.js";
import { MAX_TIMER_MS } from "../internal/sleep.js";
import type { WebhookSignatureEncoding } from "../webhooks/signWebhook.js";
import { type CheckedEndpoint, checkEndpoints } from "./checkEndpoints.js";
import { createMemoryDeliveryQueue } from "./createMemoryDeliveryQueue.js";
import type { DeliveryQueue } from "./DeliveryQueue.js";
import { createDestinationPolicy, type DestinationPolicy } from "./destinationPolicy.js";
import type { CircuitBreakerSettings } from "./endpointGate.js";
import { createNodeTransport, type Transport } from "./nodeTransport.js";
import type { WebhookDispatcherOptions } from "./WebhookDispatcherOptions.js";
import type { WebhookDispatcherTelemetry } from "./WebhookDispatcherTelemetry.js";

/** The options of the dispatcher with every default filled in and every value checked. */
export interface NormalizedDispatcherOptions {
  /** The current endpoints, checked, by id. */
  readonly endpoints: () => Promise<ReadonlyMap<string, CheckedEndpoint>>;
  readonly queue: DeliveryQueue;
  /** Whether the dispatcher created the queue, and so closes it. */
  readonly ownsQueue: boolean;
  readonly deliver: boolean;
  /** What sends an attempt. */
  readonly fetch: Transport;
  /** Whether a host name is resolved and checked before `fetch` is called (when `fetch` cannot check at connect time). */
  readonly checkBeforeSending: boolean;
  readonly destinations: DestinationPolicy;
  readonly endpointConcurrency: number;
  readonly circuitBreaker: CircuitBreakerSettings | undefined;
  readonly onCircuitChange: WebhookDispatcherOptions["onCircuitChange"];
  /** The retry settings; `maxRetryAfterMs` is `undefined` for "the wait after the next one". */
  readonly retry: InternalRetryOptions;
  readonly timeoutMs: number;
  readonly maxPayloadBytes: number;
  readonly disableAfterMs: number;
  readonly concurrency: number;
  readonly encoding: WebhookSignatureEncoding;
  readonly onAttempt: WebhookDispatcherOptions["onAttempt"];
  readonly onDead: WebhookDispatcherOptions["onDead"];
  readonly onEndpointDisabled: WebhookDispatcherOptions["onEndpointDisabled"];
  /** The instrumentation, guarded so that it never throws; `undefined` for none. */
  readonly telemetry: WebhookDispatcherTelemetry | undefined;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The defaults, in one place. */
export const DISPATCHER_DEFAULTS = {
  /**
   * After the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (then dead), each ±20%; a
   * `Retry-After` honoured up to the wait after the next one.
   */
  retry: {
    delaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
    jitter: 0.2,
    maxRetryAfterMs: undefined,
  } satisfies InternalRetryOptions<undefined>,
  timeoutMs: 15 * SECOND,
  maxPayloadBytes: 1024 * 1024,
  disableAfterMs: 5 * 24 * HOUR,
  concurrency: 10,
  encoding: "base64url",
  circuitBreaker: { failureThreshold: 10, openMs: 30 * SECOND, maxOpenMs: 10 * MINUTE },
} as const;

const fail = (message: string): never => {
  throw new TypeError(`createWebhookDispatcher: ${message}`);
};

function wholeNumber(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    return fail(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function hook<T>(name: string, value: T): T {
  return value === undefined || typeof value === "function" ? value : fail(`${name} must be a function`);
}

const queueMethods = ["add", "take", "complete", "retry", "dead", "release", "listDead", "replay", "close"];

/**
 * Turns the options of `createWebhookDispatcher` into a complete, checked set: defaults filled in,
 * a memory queue created when none is given, a `TypeError` naming the option for anything invalid
 * and a `DispatchError` (`ERR_DISPATCH_INVALID_ENDPOINT`) for a bad endpoint in a fixed list.
 */
export function normalizeDispatcherOptions(options: WebhookDispatcherOptions): NormalizedDispatcherOptions {
  if (typeof options !== "object" || options === null) fail("options must be an object with endpoints");
  options = ownOptions(options);
  const { endpoints, queue, deliver = true } = options;
  const destinations = createDestinationPolicy(options.destinations);
  let resolveEndpoints: NormalizedDispatcherOptions["endpoints"];
  if (typeof endpoints === "function") {
    resolveEndpoints = async () => checkEndpoints(await endpoints(), destinations);
  } else if (Array.isArray(endpoints)) {
    const fixed = checkEndpoints(endpoints, destinations);
    resolveEndpoints = async () => fixed;
  } else {
    return fail("endpoints must be a list of { id, url, secret } or a function returning one");
  }
  const { fetch, checkBeforeSending } = chooseTransport(options.fetch, destinations);
  if (typeof deliver !== "boolean") fail("deliver must be true or false");
  if (
    queue !== undefined &&
    (typeof queue !== "object" ||
      queue === null ||
      !queueMethods.every(
        (method) => typeof (queue as unknown as Record<string, unknown>)[method] === "function",
      ))
  ) {
    fail(`queue must implement DeliveryQueue (${queueMethods.join(", ")})`);
  }
  const retry = normalizeRetryOptions<number | undefined>(
    options.retry,
    DISPATCHER_DEFAULTS.retry,
    "createWebhookDispatcher:",
  );
  const timeoutMs = wholeNumber(
    "timeoutMs",
    options.timeoutMs,
    DISPATCHER_DEFAULTS.timeoutMs,
    1,
    MAX_TIMER_MS,
  );
  const maxPayloadBytes = wholeNumber(
    "maxPayloadBytes",
    options.maxPayloadBytes,
    DISPATCHER_DEFAULTS.maxPayloadBytes,
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const disableAfterMs =
    options.disableAfterMs === Number.POSITIVE_INFINITY
      ? Number.POSITIVE_INFINITY
      : wholeNumber(
          "disableAfterMs",
          options.disableAfterMs,
          DISPATCHER_DEFAULTS.disableAfterMs,
          1,
          Number.MAX_SAFE_INTEGER,
        );
  const concurrency = wholeNumber(
    "concurrency",
    options.concurrency,
    DISPATCHER_DEFAULTS.concurrency,
    1,
    1000,
  );
  const endpointConcurrency = wholeNumber(
    "endpointConcurrency",
    options.endpointConcurrency,
    Math.ceil(concurrency / 4),
    1,
    1000,
  );
  const circuitBreaker = normalizeBreaker(options.circuitBreaker);
  const encoding = options.encoding ?? DISPATCHER_DEFAULTS.encoding;
  if (encoding !== "base64url" && encoding !== "hex" && encoding !== "base64") {
    fail('encoding must be "base64url", "hex" or "base64"');
  }
  const onAttempt = hook("onAttempt", options.onAttempt);
  const onDead = hook("onDead", options.onDead);
  const onEndpointDisabled = hook("onEndpointDisabled", options.onEndpointDisabled);
  const onCircuitChange = hook("onCircuitChange", options.onCircuitChange);
  const telemetry = guardTelemetry(options.telemetry, "createWebhookDispatcher:", "startDispatcher");
  // Everything is checked before the queue is created, so that a refusal leaves nothing open.
  return {
    endpoints: resolveEndpoints,
    queue: queue ?? createMemoryDeliveryQueue({ lockMs: Math.min(MAX_TIMER_MS, timeoutMs * 4 + 30_000) }),
    ownsQueue: queue === undefined,
    deliver,
    fetch,
    checkBeforeSending,
    destinations,
    endpointConcurrency,
    circuitBreaker,
    onCircuitChange,
    retry,
    timeoutMs,
    maxPayloadBytes,
    disableAfterMs,
    concurrency,
    encoding,
    onAttempt,
    onDead,
    onEndpointDisabled,
    telemetry,
  };
}

/**
 * Picks what sends: your `fetch` (host names checked before it only with your own resolver), else on
 * Node.js the pinned node:http(s) transport (checked at connect time), else the global `fetch` with
 * host names resolved and checked before each attempt. A runtime that can neither resolve nor is told
 * to allow everything is refused here rather than sending unchecked.
 */
function chooseTransport(
  given: WebhookDispatcherOptions["fetch"],
  destinations: DestinationPolicy,
): { fetch: Transport; checkBeforeSending: boolean } {
  if (given !== undefined) {
    if (typeof given !== "function") fail("fetch must be a function");
    return { fetch: given, checkBeforeSending: destinations.ownResolver };
  }
  const node = createNodeTransport({ lookup: destinations.lookup });
  if (node !== undefined) return { fetch: node, checkBeforeSending: false };
  const global = globalThis.fetch;
  if (typeof global !== "function") return fail("fetch must be a function (no global fetch here: pass one)");
  if (!destinations.canResolve && !destinations.allowsEverything) {
    fail(
      'this runtime has no DNS resolver to check where webhooks go: pass destinations.resolve, or destinations.allow: ["0.0.0.0/0", "::/0"] where the egress is already confined (an egress proxy that refuses internal addresses, a platform that cannot reach them)',
    );
  }
  return { fetch: (input, init) => global(input, init), checkBeforeSending: !destinations.allowsEverything };
}

/** Checks the circuit breaker option and fills in its defaults; `undefined` for none. */
function normalizeBreaker(
  value: WebhookDispatcherOptions["circuitBreaker"],
): CircuitBreakerSettings | undefined {
  if (value === false) return undefined;
  if (value !== undefined && (typeof value !== "object" || value === null)) {
    return fail("circuitBreaker must be false or { failureThreshold?, openMs?, maxOpenMs? }");
  }
  const defaults = DISPATCHER_DEFAULTS.circuitBreaker;
  const failureThreshold = wholeNumber(
    "circuitBreaker.failureThreshold",
    value?.failureThreshold,
    defaults.failureThreshold,
    1,
    1_000_000,
  );
  const openMs = wholeNumber("circuitBreaker.openMs", value?.openMs, defaults.openMs, 1, MAX_TIMER_MS);
  const maxOpenMs = wholeNumber(
    "circuitBreaker.maxOpenMs",
    value?.maxOpenMs,
    Math.max(defaults.maxOpenMs, openMs),
    openMs,
    MAX_TIMER_MS,
  );
  return { failureThreshold, openMs, maxOpenMs };
}
