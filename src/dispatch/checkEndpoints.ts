import { bytesOf } from "../internal/bytes.js";
import { quote } from "../internal/describe.js";
import type { WebhookSecret } from "../webhooks/WebhookSecret.js";
import { type WebhookEventType, webhookEventTypes } from "../webhooks/webhookEventTypes.js";
import { WEBHOOK_ID_HEADER } from "../webhooks/webhookIdHeader.js";
import { DELIVERY_ID_PATTERN } from "./checkQueuedDelivery.js";
import { DispatchError } from "./DispatchError.js";
import type { DestinationPolicy } from "./destinationPolicy.js";
import type { WebhookEndpoint } from "./WebhookEndpoint.js";

/** An endpoint, checked: its URL as a string, its newest secret picked out, its options read once. */
export interface CheckedEndpoint {
  readonly id: string;
  readonly url: string;
  readonly secret: WebhookSecret;
  /** The types it subscribes to; `undefined` for all. */
  readonly types: ReadonlySet<WebhookEventType> | undefined;
  /** Headers added to each request, checked. */
  readonly headers: readonly (readonly [string, string])[];
  /** Its own concurrency limit, or `undefined` for the dispatcher's. */
  readonly concurrency: number | undefined;
  /** Its rate limit, or `undefined` for none. */
  readonly ratePerSecond: number | undefined;
  /** What the caller gave, handed back to hooks. */
  readonly source: WebhookEndpoint;
}

/** What endpoint headers may hold, at most. */
const MAX_HEADERS = 20;
const MAX_HEADER_BYTES = 8 * 1024;

/** Headers the dispatcher sets itself, and those of the connection: an endpoint may not name them. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "content-type",
  "service-timestamp",
  "service-signature",
  WEBHOOK_ID_HEADER,
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-connection",
  "proxy-authorization",
]);

/** An HTTP token (RFC 9110): what a header name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible ASCII, spaces and tabs inside, no control characters: a value that cannot split a request. */
const HEADER_VALUE = /^[\x21-\x7e\x80-\xff]([\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$|^$/;

const knownTypes: ReadonlySet<string> = new Set(webhookEventTypes);

/** The most endpoints one list may hold: each dispatch enqueues one delivery per endpoint. */
export const MAX_ENDPOINTS = 10_000;

const invalid = (message: string): never => {
  throw new DispatchError("ERR_DISPATCH_INVALID_ENDPOINT", message);
};

function checkSecret(secret: unknown, name: string): WebhookSecret {
  if (typeof secret === "string")
    return secret.length > 0 ? secret : invalid(`${name}: its newest secret is empty`);
  const bytes = bytesOf(secret);
  if (bytes === undefined) return invalid(`${name}: its newest secret must be a non-empty string or bytes`);
  return bytes.byteLength > 0 ? (secret as WebhookSecret) : invalid(`${name}: its newest secret is empty`);
}

function checkHeaders(value: unknown, name: string): readonly (readonly [string, string])[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid(`${name}: headers must be an object of header names to values`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) return invalid(`${name}: headers holds more than ${MAX_HEADERS} headers`);
  let bytes = 0;
  const checked: [string, string][] = [];
  for (const [header, headerValue] of entries) {
    if (!TOKEN.test(header)) return invalid(`${name}: ${quote(header.slice(0, 100))} is not a header name`);
    const lower = header.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) {
      return invalid(
        `${name}: the header ${quote(lower)} is set by the dispatcher or the connection, not by an endpoint`,
      );
    }
    if (typeof headerValue !== "string" || !HEADER_VALUE.test(headerValue)) {
      return invalid(
        `${name}: the value of the header ${quote(lower)} must be a string without control characters or surrounding white space`,
      );
    }
    bytes += header.length + headerValue.length;
    checked.push([lower, headerValue]);
  }
  if (bytes > MAX_HEADER_BYTES) return invalid(`${name}: headers hold more than ${MAX_HEADER_BYTES} bytes`);
  return checked;
}

function checkTypes(value: unknown, name: string): ReadonlySet<WebhookEventType> | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > knownTypes.size * 4) {
    return invalid(`${name}: types must be a list of webhook types`);
  }
  for (const type of value as unknown[]) {
    if (typeof type !== "string" || !knownTypes.has(type)) {
      return invalid(
        `${name}: types holds ${typeof type === "string" ? quote(type.slice(0, 100)) : "a non-string"}, not a webhook type (${webhookEventTypes.join(", ")})`,
      );
    }
  }
  return new Set(value as WebhookEventType[]);
}

function checkLimit(value: unknown, name: string, what: string, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && (!Number.isSafeInteger(value) || value > 1000))
  ) {
    return invalid(`${name}: ${what}`);
  }
  return value;
}

function checkEndpoint(value: unknown, index: number, policy: DestinationPolicy): CheckedEndpoint {
  let name = `endpoint ${index}`;
  try {
    if (typeof value !== "object" || value === null)
      return invalid(`${name} must be an object { id, url, secret }`);
    const { id, url, secret, types, headers, concurrency, ratePerSecond } = value as Record<string, unknown>;
    if (typeof id !== "string" || !DELIVERY_ID_PATTERN.test(id)) {
      return invalid(`${name}: id must be 1 to 200 visible ASCII characters`);
    }
    name = `endpoint ${quote(id)}`;
    let parsed: URL;
    try {
      parsed = new URL(typeof url === "string" ? url : url instanceof URL ? url.href : "");
    } catch {
      return invalid(`${name}: url must be an absolute http: or https: URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      return invalid(`${name}: url must be an absolute http: or https: URL`);
    }
    if (parsed.username !== "" || parsed.password !== "") {
      return invalid(`${name}: url must not hold a user name or password; send credentials in headers`);
    }
    const refusal = policy.checkUrl(parsed);
    if (refusal === "scheme") {
      throw new DispatchError(
        "ERR_DISPATCH_DESTINATION_REFUSED",
        `${name}: url must be https: (destinations.httpsOnly is on)`,
      );
    }
    if (refusal === "address") {
      // Never the URL or the address: the refusal reads the same for every internal destination.
      throw new DispatchError(
        "ERR_DISPATCH_DESTINATION_REFUSED",
        `${name}: url points to a loopback, private, link-local or otherwise internal address; allow it with destinations.allow if it is yours`,
      );
    }
    if (Array.isArray(secret) && secret.length === 0) {
      return invalid(`${name}: secret must be a secret or a list of at least one, newest first`);
    }
    const newest: unknown = Array.isArray(secret) ? secret[0] : secret;
    return {
      id,
      url: parsed.href,
      secret: checkSecret(newest, name),
      types: checkTypes(types, name),
      headers: checkHeaders(headers, name),
      concurrency: checkLimit(concurrency, name, "concurrency must be a whole number from 1 to 1000", true),
      ratePerSecond: checkLimit(ratePerSecond, name, "ratePerSecond must be a number above 0", false),
      source: value as WebhookEndpoint,
    };
  } catch (error) {
    // A throwing getter or proxy: say which endpoint, keep the cause.
    if (error instanceof DispatchError) throw error;
    throw new DispatchError("ERR_DISPATCH_INVALID_ENDPOINT", `${name} could not be read`, { cause: error });
  }
}

/**
 * Checks a list of endpoints and indexes it by id; a `DispatchError` with code
 * `ERR_DISPATCH_INVALID_ENDPOINT` (or `ERR_DISPATCH_DESTINATION_REFUSED` for a URL the destination
 * rules refuse) names the first bad one by its index or id, never by its URL or secret.
 */
export function checkEndpoints(
  value: unknown,
  policy: DestinationPolicy,
): ReadonlyMap<string, CheckedEndpoint> {
  if (!Array.isArray(value)) return invalid("endpoints must be a list of { id, url, secret }");
  if (value.length > MAX_ENDPOINTS) return invalid(`endpoints holds more than ${MAX_ENDPOINTS} entries`);
  const byId = new Map<string, CheckedEndpoint>();
  value.forEach((item, index) => {
    const endpoint = checkEndpoint(item, index, policy);
    if (byId.has(endpoint.id)) invalid(`two endpoints share the id ${quote(endpoint.id)}`);
    byId.set(endpoint.id, endpoint);
  });
  return byId;
}
