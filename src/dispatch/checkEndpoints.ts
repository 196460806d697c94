import { bytesOf } from "../internal/bytes.js";
import { quote } from "../internal/describe.js";
import type { WebhookSecret } from "../webhooks/WebhookSecret.js";
import { DELIVERY_ID_PATTERN } from "./checkQueuedDelivery.js";
import { DispatchError } from "./DispatchError.js";
import type { WebhookEndpoint } from "./WebhookEndpoint.js";

/** An endpoint, checked: its URL as a string and its newest secret picked out. */
export interface CheckedEndpoint {
  readonly id: string;
  readonly url: string;
  readonly secret: WebhookSecret;
  /** What the caller gave, handed back to `onEndpointDisabled`. */
  readonly source: WebhookEndpoint;
}

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

function checkEndpoint(value: unknown, index: number): CheckedEndpoint {
  let name = `endpoint ${index}`;
  try {
    if (typeof value !== "object" || value === null)
      return invalid(`${name} must be an object { id, url, secret }`);
    const { id, url, secret } = value as Record<string, unknown>;
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
    if (Array.isArray(secret) && secret.length === 0) {
      return invalid(`${name}: secret must be a secret or a list of at least one, newest first`);
    }
    const newest: unknown = Array.isArray(secret) ? secret[0] : secret;
    return { id, url: parsed.href, secret: checkSecret(newest, name), source: value as WebhookEndpoint };
  } catch (error) {
    // A throwing getter or proxy: say which endpoint, keep the cause.
    if (error instanceof DispatchError) throw error;
    throw new DispatchError("ERR_DISPATCH_INVALID_ENDPOINT", `${name} could not be read`, { cause: error });
  }
}

/**
 * Checks a list of endpoints and indexes it by id; a `DispatchError` with code
 * `ERR_DISPATCH_INVALID_ENDPOINT` names the first bad one by its index or id, never by its URL or
 * secret.
 */
export function checkEndpoints(value: unknown): ReadonlyMap<string, CheckedEndpoint> {
  if (!Array.isArray(value)) return invalid("endpoints must be a list of { id, url, secret }");
  if (value.length > MAX_ENDPOINTS) return invalid(`endpoints holds more than ${MAX_ENDPOINTS} entries`);
  const byId = new Map<string, CheckedEndpoint>();
  value.forEach((item, index) => {
    const endpoint = checkEndpoint(item, index);
    if (byId.has(endpoint.id)) invalid(`two endpoints share the id ${quote(endpoint.id)}`);
    byId.set(endpoint.id, endpoint);
  });
  return byId;
}
