import { guardTelemetry } from "../internal/guardTelemetry.js";
import { ownOptions } from "../internal/ownOptions.js";
import { createMemoryIdempotencyStore } from "../server/createMemoryIdempotencyStore.js";
import type { IdempotencyStore } from "../server/IdempotencyStore.js";
import { hmacKeys } from "./hmacKeys.js";
import type {
  WebhookErrorContext,
  WebhookHandler,
  WebhookReceiverOptions,
  WebhookReplayGuardOptions,
} from "./WebhookReceiverOptions.js";
import type { WebhookTelemetry } from "./WebhookTelemetry.js";
import type { WebhookVerificationError } from "./WebhookVerificationError.js";
import { webhookEventTypes } from "./webhookEventTypes.js";

/** The options of a replay guard with every default filled in and every value checked. */
export interface NormalizedReplayGuardOptions {
  readonly store: IdempotencyStore;
  /** Whether the guard created the store, and so closes it. */
  readonly ownsStore: boolean;
  readonly leaseMs: number;
  readonly retentionMs: number;
  readonly storeTimeoutMs: number;
}

/** The options of a receiver with every default filled in and every value checked. */
export interface NormalizedReceiverOptions {
  readonly keys: Promise<CryptoKey[]>;
  /** The handler of each type: `on`'s own, else `onAny`, else none (acknowledged). */
  readonly handlers: ReadonlyMap<string, WebhookHandler>;
  readonly onError: ((error: WebhookVerificationError, context: WebhookErrorContext) => void) | undefined;
  readonly toleranceMs: number;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  /** The instrumentation, guarded so that it never throws; `undefined` for none. */
  readonly telemetry: WebhookTelemetry | undefined;
  readonly guard: NormalizedReplayGuardOptions;
}

/** The defaults, in one place. */
export const RECEIVER_DEFAULTS = {
  leaseMs: 30_000,
  retentionMs: 48 * 60 * 60 * 1000,
  storeTimeoutMs: 2_000,
  toleranceMs: 300_000,
  maxBodyBytes: 1_048_576,
  bodyTimeoutMs: 30_000,
} as const;

// setTimeout cannot wait longer than this.
const MAX_TIMER_MS = 2_147_483_647;

function wholeNumber(
  caller: string,
  name: string,
  value: unknown,
  fallback: number,
  min = 1,
  max = MAX_TIMER_MS,
) {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new TypeError(`${caller}: ${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

const STORE_METHODS = ["claim", "extend", "complete", "release", "close"] as const;

/** Checks the options of a replay guard (a receiver's too) and creates a memory store when none is given. */
export function normalizeReplayGuardOptions(
  options: WebhookReplayGuardOptions,
  caller: string,
): NormalizedReplayGuardOptions {
  if (typeof options !== "object" || options === null)
    throw new TypeError(`${caller}: options must be an object`);
  options = ownOptions(options);
  const { store } = options;
  if (
    store !== undefined &&
    (typeof store !== "object" ||
      store === null ||
      !STORE_METHODS.every(
        (method) => typeof (store as unknown as Record<string, unknown>)[method] === "function",
      ))
  ) {
    throw new TypeError(
      `${caller}: store must implement IdempotencyStore (claim, extend, complete, release, close), as createRedisIdempotencyStore does`,
    );
  }
  const leaseMs = wholeNumber(caller, "leaseMs", options.leaseMs, RECEIVER_DEFAULTS.leaseMs);
  const retentionMs = wholeNumber(
    caller,
    "retentionMs",
    options.retentionMs,
    RECEIVER_DEFAULTS.retentionMs,
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const storeTimeoutMs = wholeNumber(
    caller,
    "storeTimeoutMs",
    options.storeTimeoutMs,
    RECEIVER_DEFAULTS.storeTimeoutMs,
  );
  // Everything is checked before a store is created, so that a refusal leaves nothing open.
  return {
    store: store ?? createMemoryIdempotencyStore(),
    ownsStore: store === undefined,
    leaseMs,
    retentionMs,
    storeTimeoutMs,
  };
}

const CALLER = "createWebhookReceiver";

/**
 * Turns the options of `createWebhookReceiver` into a complete, checked set: a `TypeError` naming
 * the option for anything invalid, a `WebhookVerificationError` (`ERR_WEBHOOK_SECRET_INVALID`) for
 * an unusable secret, before any request arrives.
 */
export function normalizeReceiverOptions(options: WebhookReceiverOptions): NormalizedReceiverOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${CALLER}: pass the options as an object: createWebhookReceiver({ secret, on })`);
  }
  options = ownOptions(options);
  const { on, onAny, onError } = options;
  if (!("secret" in options)) throw new TypeError(`${CALLER}: secret is required`);
  const keys = hmacKeys(options.secret);
  // A failed import (no Web Crypto here) is reported by each request, not as an unhandled rejection.
  keys.catch(() => undefined);
  if (onAny !== undefined && typeof onAny !== "function")
    throw new TypeError(`${CALLER}: onAny must be a function`);
  if (onError !== undefined && typeof onError !== "function") {
    throw new TypeError(`${CALLER}: onError must be a function`);
  }
  if (on !== undefined && (typeof on !== "object" || on === null)) {
    throw new TypeError(`${CALLER}: on must be an object of handlers by webhook type`);
  }
  const handlers = new Map<string, WebhookHandler>();
  const known: readonly string[] = webhookEventTypes;
  for (const [type, handler] of Object.entries(on ?? {})) {
    if (!known.includes(type)) {
      throw new TypeError(
        `${CALLER}: on has a handler for "${type.slice(0, 40)}", which is not a webhook type (${known.join(", ")})`,
      );
    }
    if (handler === undefined) continue;
    if (typeof handler !== "function") throw new TypeError(`${CALLER}: on["${type}"] must be a function`);
    handlers.set(type, handler as WebhookHandler);
  }
  if (onAny !== undefined) for (const type of known) if (!handlers.has(type)) handlers.set(type, onAny);
  const toleranceMs = wholeNumber(
    CALLER,
    "toleranceMs",
    options.toleranceMs,
    RECEIVER_DEFAULTS.toleranceMs,
    0,
  );
  const maxBodyBytes = wholeNumber(
    CALLER,
    "maxBodyBytes",
    options.maxBodyBytes,
    RECEIVER_DEFAULTS.maxBodyBytes,
    0,
    Number.MAX_SAFE_INTEGER,
  );
  const bodyTimeoutMs = wholeNumber(
    CALLER,
    "bodyTimeoutMs",
    options.bodyTimeoutMs,
    RECEIVER_DEFAULTS.bodyTimeoutMs,
  );
  const telemetry = guardTelemetry(options.telemetry, `${CALLER}:`, "startWebhook");
  // Last: it creates the memory store when none is given, once everything else was accepted.
  const guard = normalizeReplayGuardOptions(options, CALLER);
  return {
    keys,
    handlers,
    onError,
    toleranceMs,
    maxBodyBytes,
    bodyTimeoutMs,
    telemetry,
    guard,
  };
}
