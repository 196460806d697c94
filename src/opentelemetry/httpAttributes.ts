import type { Attributes } from "@opentelemetry/api";
import { SEMCONV } from "./telemetryNames.js";

/** The methods the conventions name, each with its attributes made once; any other is `_OTHER`. */
const KNOWN_METHODS: ReadonlyMap<string, Attributes> = new Map(
  ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"].map((method) => [
    method,
    { [SEMCONV.method]: method },
  ]),
);

/** `http.request.method` (and `http.request.method_original` for a method the conventions do not name). */
export function methodAttributes(method: string): Attributes {
  return (
    KNOWN_METHODS.get(method) ?? { [SEMCONV.method]: "_OTHER", [SEMCONV.methodOriginal]: method.slice(0, 32) }
  );
}

/** The longest `url.full` or `url.path` recorded: a longer one is cut (a peer chooses a path's length). */
export const MAX_URL_ATTRIBUTE = 2_048;
/** The longest `server.address` recorded (a DNS name has at most 253 characters). */
export const MAX_ADDRESS_ATTRIBUTE = 255;
/** The longest URL whose attributes are kept for reuse: the caches hold at most 1,000 of them. */
const MAX_CACHED_URL = 1_024;
/** How many URLs (and, for servers, methods and URLs) each cache keeps. */
const MAX_CACHED = 1_000;

/** `text` cut to `limit` characters, never between the two halves of a surrogate pair. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** A URL's port, or the scheme's default; `undefined` for one that is not a TCP port. */
function portOf(port: string, scheme: string): number | undefined {
  if (port === "") return scheme === "https" ? 443 : 80;
  const number = port.length <= 5 ? Number(port) : Number.NaN;
  return Number.isInteger(number) && number <= 65_535 ? number : undefined;
}

/** A host name without the brackets of an IPv6 literal, at most {@link MAX_ADDRESS_ATTRIBUTE} characters. */
const hostOf = (hostname: string): string => cut(hostname.replace(/^\[(.*)\]$/, "$1"), MAX_ADDRESS_ATTRIBUTE);

/** The targets of the URLs seen last: a client or a dispatcher sends to few URLs, again and again. */
const targets = new Map<string, Attributes>();

/**
 * The target of an HTTP client span: `url.full` **without** its query, fragment, user name or
 * password (a query may carry a token or a tenant's data), `server.address` and `server.port`.
 * Nothing for a URL that cannot be read. Made once per URL of up to 1,024 characters (at most
 * 1,000 kept); the object is shared, and frozen.
 */
export function clientTargetAttributes(url: string | undefined): Attributes {
  return cachedTarget(targets, url, false);
}

/** The targets of the webhook endpoints seen last. */
const endpointTargets = new Map<string, Attributes>();

/**
 * {@link clientTargetAttributes} for a webhook endpoint, whose path is replaced by `/REDACTED`: an
 * endpoint's URL is often its credential (a capability URL such as a chat service's incoming
 * webhook carries its token in the path), and the span names the endpoint by its id.
 */
export function endpointTargetAttributes(url: string | undefined): Attributes {
  return cachedTarget(endpointTargets, url, true);
}

function cachedTarget(
  cache: Map<string, Attributes>,
  url: string | undefined,
  redactPath: boolean,
): Attributes {
  if (typeof url !== "string") return {};
  if (url.length > MAX_CACHED_URL) return readTarget(url, redactPath);
  let target = cache.get(url);
  if (target === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    target = readTarget(url, redactPath);
    cache.set(url, target);
  }
  return target;
}

function readTarget(url: string, redactPath: boolean): Attributes {
  try {
    const target = new URL(url);
    target.username = "";
    target.password = "";
    target.search = "";
    target.hash = "";
    if (redactPath && target.pathname !== "/") target.pathname = "/REDACTED";
    const port = portOf(target.port, target.protocol.slice(0, -1));
    return Object.freeze({
      [SEMCONV.urlFull]: cut(target.href, MAX_URL_ATTRIBUTE),
      [SEMCONV.serverAddress]: hostOf(target.hostname),
      ...(port === undefined ? {} : { [SEMCONV.serverPort]: port }),
    });
  } catch {
    return {};
  }
}

/** The parts of an absolute URL a server span records: scheme, host, port and path (never the query). */
const ABSOLUTE_URL = /^([a-z][a-z\d+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d*))?([^?#]*)/i;

/**
 * The request side of an HTTP server span: `url.path` and `url.scheme` (never the query),
 * `server.address` and `server.port`. A Fetch `Request`'s URL is absolute and already normalised,
 * so it is read with one regular expression rather than parsed again on every request.
 */
export function serverRequestAttributes(url: string): Attributes {
  const parts = ABSOLUTE_URL.exec(url);
  if (parts === null) return {};
  const [, scheme = "", host = "", port = "", path = ""] = parts;
  const lower = cut(scheme, 32).toLowerCase();
  const portNumber = portOf(port, lower);
  return {
    [SEMCONV.urlPath]: path === "" ? "/" : cut(path, MAX_URL_ATTRIBUTE),
    [SEMCONV.urlScheme]: lower,
    [SEMCONV.serverAddress]: hostOf(host),
    ...(portNumber === undefined ? {} : { [SEMCONV.serverPort]: portNumber }),
  };
}

/** The attributes of the requests seen last, by method and URL: a server sees few URLs, again and again. */
const requests = new Map<string, Attributes>();

/**
 * The attributes an HTTP server span starts with: {@link methodAttributes} and
 * {@link serverRequestAttributes}, made once per method and URL (at most 1,000 kept, URLs of up to
 * 256 characters). The object is shared, and frozen: hand a tracer a copy.
 */
export function requestAttributes(method: string, url: string): Attributes {
  if (url.length > 256 || method.length > 32)
    return { ...methodAttributes(method), ...serverRequestAttributes(url) };
  const key = `${method.length}:${method}${url}`;
  let attributes = requests.get(key);
  if (attributes === undefined) {
    if (requests.size >= MAX_CACHED) requests.clear();
    attributes = Object.freeze({ ...methodAttributes(method), ...serverRequestAttributes(url) });
    requests.set(key, attributes);
  }
  return attributes;
}

/** The class of a status, for metrics: `"2xx"` to `"5xx"`, or `"none"` when no response came. */
export const statusClassOf = (status: number | undefined): string =>
  status === undefined || status < 100 || status > 599 ? "none" : `${Math.floor(status / 100)}xx`;
