import { type InternalRetryOptions, normalizeRetryOptions } from "../internal/normalizeRetryOptions.js";
import { MAX_TIMER_MS } from "../internal/sleep.js";
import type { WebhookSignatureEncoding } from "../webhooks/signWebhook.js";
import { type CheckedEndpoint, checkEndpoints } from "./checkEndpoints.js";
import { createMemoryDeliveryQueue } from "./createMemoryDeliveryQueue.js";
import type { DeliveryQueue } from "./DeliveryQueue.js";
import type { WebhookDispatcherOptions } from "./WebhookDispatcherOptions.js";

/** The options of the dispatcher with every default filled in and every value checked. */
export interface NormalizedDispatcherOptions {
  /** The current endpoints, checked, by id. */
  readonly endpoints: () => Promise<ReadonlyMap<string, CheckedEndpoint>>;
  readonly queue: DeliveryQueue;
  /** Whether the dispatcher created the queue, and so closes it. */
  readonly ownsQueue: boolean;
  readonly deliver: boolean;
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>;
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
  const { endpoints, queue, fetch = globalThis.fetch, deliver = true } = options;
  let resolveEndpoints: NormalizedDispatcherOptions["endpoints"];
  if (typeof endpoints === "function") {
    resolveEndpoints = async () => checkEndpoints(await endpoints());
  } else if (Array.isArray(endpoints)) {
    const fixed = checkEndpoints(endpoints);
    resolveEndpoints = async () => fixed;
  } else {
    return fail("endpoints must be a list of { id, url, secret } or a function returning one");
  }
  if (typeof fetch !== "function") fail("fetch must be a function (no global fetch here: pass one)");
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
  const encoding = options.encoding ?? DISPATCHER_DEFAULTS.encoding;
  if (encoding !== "base64url" && encoding !== "hex" && encoding !== "base64") {
    fail('encoding must be "base64url", "hex" or "base64"');
  }
  const onAttempt = hook("onAttempt", options.onAttempt);
  const onDead = hook("onDead", options.onDead);
  const onEndpointDisabled = hook("onEndpointDisabled", options.onEndpointDisabled);
  // Everything is checked before the queue is created, so that a refusal leaves nothing open.
  return {
    endpoints: resolveEndpoints,
    queue: queue ?? createMemoryDeliveryQueue({ lockMs: Math.min(MAX_TIMER_MS, timeoutMs * 4 + 30_000) }),
    ownsQueue: queue === undefined,
    deliver,
    fetch,
    retry,
    timeoutMs,
    maxPayloadBytes,
    disableAfterMs,
    concurrency,
    encoding,
    onAttempt,
    onDead,
    onEndpointDisabled,
  };
}
