import { guardTelemetry } from "../internal/guardTelemetry.js";
import { ownOptions } from "../internal/ownOptions.js";
import {
  DEFAULT_EVENT_ATTRIBUTE_NAMES,
  type EventAttributeNames,
  type JsonApiOptions,
  resolveAttributeNames,
} from "../jsonapi/eventAttributeNames.js";
import { createMemoryIdempotencyStore } from "./createMemoryIdempotencyStore.js";
import type { CreateEventRequest, CreateEventResult, EventsHandlerOptions } from "./EventsHandlerOptions.js";
import type { EventsHandlerTelemetry } from "./EventsHandlerTelemetry.js";
import type { IdempotencyStore } from "./IdempotencyStore.js";

/** The options of the events handler with every default filled in and every value checked. */
export interface NormalizedHandlerOptions {
  readonly authorize: (request: Request) => string | null | Promise<string | null>;
  readonly create: (request: CreateEventRequest) => CreateEventResult | Promise<CreateEventResult>;
  readonly store: IdempotencyStore;
  /** Whether the handler created the store, and so closes it. */
  readonly ownsStore: boolean;
  readonly maxBodyBytes: number;
  readonly retentionMs: number;
  readonly leaseMs: number;
  readonly storeTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly createTimeoutMs: number;
  /** The `WWW-Authenticate` value of a 401. */
  readonly authenticationScheme: string;
  /** The CORS policy, or `undefined` for none. */
  readonly cors: NormalizedCors | undefined;
  readonly path: string;
  readonly location: ((id: string) => string | URL) | undefined;
  readonly onError: EventsHandlerOptions["onError"];
  /** The instrumentation, guarded so that it never throws; `undefined` for none. */
  readonly telemetry: EventsHandlerTelemetry | undefined;
  readonly attributeNames: EventAttributeNames;
  /**
   * The options of the document validator: `undefined` for the default attribute names, so each
   * request takes the validator's plain path (as a call without options does), else the names.
   */
  readonly jsonApi: JsonApiOptions | undefined;
}

/** The CORS policy with its defaults filled in. */
export interface NormalizedCors {
  readonly allows: (origin: string) => boolean;
  /** Whether any origin is allowed (answered `*` when credentials are not sent). */
  readonly anyOrigin: boolean;
  /** Whether `Access-Control-Allow-Credentials: true` is sent (the option's `allowCredentials`). */
  readonly allowCredentials: boolean;
  /** The `Access-Control-Max-Age` header's value: the option's `maxAgeMs` in whole seconds. */
  readonly maxAgeHeader: string;
}

/** The defaults, in one place. */
export const HANDLER_DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  retentionMs: 24 * 60 * 60 * 1000,
  leaseMs: 10_000,
  storeTimeoutMs: 2_000,
  bodyTimeoutMs: 30_000,
  createTimeoutMs: 10_000,
  closeTimeoutMs: 10_000,
  authenticationScheme: "Bearer",
  corsMaxAgeMs: 600_000,
  path: "/events",
} as const;

// setTimeout cannot wait longer than this.
const MAX_TIMER_MS = 2_147_483_647;

function positiveInteger(name: string, value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new TypeError(`createEventsHandler: ${name} must be a whole number from 1 to ${max}`);
  }
  return value;
}

/**
 * Turns the options of `createEventsHandler` into a complete, checked set: defaults filled in, a
 * memory store created when none is given, and a `TypeError` naming the option for anything invalid
 * (an `AttributeNameError` for attribute names JSON:API forbids).
 */
export function normalizeHandlerOptions(options: EventsHandlerOptions): NormalizedHandlerOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createEventsHandler: options must be an object with authorize and create");
  }
  options = ownOptions(options);
  const { authorize, create, store, location, path = HANDLER_DEFAULTS.path } = options;
  if (typeof authorize !== "function") {
    throw new TypeError("createEventsHandler: authorize must be a function returning a principal or null");
  }
  if (typeof create !== "function") {
    throw new TypeError("createEventsHandler: create must be a function returning { id }");
  }
  if (options.onError !== undefined && typeof options.onError !== "function") {
    throw new TypeError("createEventsHandler: onError must be a function");
  }
  if (location !== undefined && typeof location !== "function") {
    throw new TypeError("createEventsHandler: location must be a function from an event id to a URL");
  }
  if (typeof path !== "string" || !/^\/[^?#\s]*$/.test(path)) {
    throw new TypeError('createEventsHandler: path must start with "/" and hold no query, fragment or space');
  }
  if (
    store !== undefined &&
    (typeof store !== "object" ||
      store === null ||
      !["claim", "extend", "complete", "release", "close"].every(
        (method) => typeof (store as unknown as Record<string, unknown>)[method] === "function",
      ))
  ) {
    throw new TypeError(
      "createEventsHandler: store must implement IdempotencyStore (claim, extend, complete, release, close)",
    );
  }
  // Everything is checked before a store is created, so that a refusal leaves nothing open.
  const attributeNames = resolveAttributeNames(options);
  const maxBodyBytes = positiveInteger("maxBodyBytes", options.maxBodyBytes, HANDLER_DEFAULTS.maxBodyBytes);
  const retentionMs = positiveInteger("retentionMs", options.retentionMs, HANDLER_DEFAULTS.retentionMs);
  const leaseMs = positiveInteger("leaseMs", options.leaseMs, HANDLER_DEFAULTS.leaseMs, MAX_TIMER_MS);
  const storeTimeoutMs = positiveInteger(
    "storeTimeoutMs",
    options.storeTimeoutMs,
    HANDLER_DEFAULTS.storeTimeoutMs,
    MAX_TIMER_MS,
  );
  const bodyTimeoutMs = positiveInteger(
    "bodyTimeoutMs",
    options.bodyTimeoutMs,
    HANDLER_DEFAULTS.bodyTimeoutMs,
    MAX_TIMER_MS,
  );
  const createTimeoutMs = positiveInteger(
    "createTimeoutMs",
    options.createTimeoutMs,
    HANDLER_DEFAULTS.createTimeoutMs,
    MAX_TIMER_MS,
  );
  const { authenticationScheme = HANDLER_DEFAULTS.authenticationScheme } = options;
  // An auth-scheme token (RFC 9110), optionally followed by parameters: a value a header can carry.
  if (
    typeof authenticationScheme !== "string" ||
    !/^[!#$%&'*+.^_`|~\w-]+(?: [ -~]*)?$/.test(authenticationScheme)
  ) {
    throw new TypeError(
      'createEventsHandler: authenticationScheme must be an auth scheme such as "Bearer", optionally with parameters',
    );
  }
  const cors = normalizeCors(options.cors);
  const telemetry = guardTelemetry(options.telemetry, "createEventsHandler:", "startEventsRequest");
  return {
    authorize,
    create,
    store: store ?? createMemoryIdempotencyStore(),
    ownsStore: store === undefined,
    maxBodyBytes,
    retentionMs,
    leaseMs,
    storeTimeoutMs,
    bodyTimeoutMs,
    createTimeoutMs,
    authenticationScheme,
    cors,
    path,
    location,
    onError: options.onError,
    telemetry,
    attributeNames,
    jsonApi: attributeNames === DEFAULT_EVENT_ATTRIBUTE_NAMES ? undefined : { attributeNames },
  };
}

/** Checks the `cors` option and fills in its defaults. */
export function normalizeCors(cors: EventsHandlerOptions["cors"]): NormalizedCors | undefined {
  if (cors === undefined) return undefined;
  if (typeof cors !== "object" || cors === null) {
    throw new TypeError("createEventsHandler: cors must be an object with origins");
  }
  const { origins, allowCredentials: credentials = false } = cors;
  let allows: (origin: string) => boolean;
  let anyOrigin = false;
  if (typeof origins === "function") {
    allows = (origin) => {
      try {
        return origins(origin) === true;
      } catch {
        return false;
      }
    };
  } else if (Array.isArray(origins) && origins.every((origin) => typeof origin === "string")) {
    anyOrigin = origins.includes("*");
    const listed = new Set(origins);
    allows = anyOrigin ? () => true : (origin) => listed.has(origin);
  } else {
    throw new TypeError(
      'createEventsHandler: cors.origins must be a list of origins ("https://app.example.com", or "*" for any) or a function from an origin to true or false',
    );
  }
  if (typeof credentials !== "boolean") {
    throw new TypeError("createEventsHandler: cors.allowCredentials must be true or false");
  }
  // Echoing every origin with credentials would let any site send the user's cookies and read the answer.
  if (credentials && anyOrigin) {
    throw new TypeError(
      'createEventsHandler: cors.allowCredentials cannot go with origins ["*"]: list the origins allowed, or pass a function that checks them',
    );
  }
  const maxAgeMs = positiveInteger("cors.maxAgeMs", cors.maxAgeMs, HANDLER_DEFAULTS.corsMaxAgeMs);
  return {
    allows,
    anyOrigin,
    allowCredentials: credentials,
    maxAgeHeader: String(Math.floor(maxAgeMs / 1000)),
  };
}
