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

/** A URL's port, or the scheme's default. */
const portOf = (port: string, scheme: string): number =>
  port !== "" ? Number(port) : scheme === "https" ? 443 : 80;

/** A host name without the brackets of an IPv6 literal. */
const hostOf = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, "$1");

/** The targets of the URLs seen last: a client or a dispatcher sends to few URLs, again and again. */
const targets = new Map<string, Attributes>();

/**
 * The target of an HTTP client span: `url.full` **without** its query, fragment, user name or
 * password (a query may carry a token or a tenant's data), `server.address` and `server.port`.
 * Nothing for a URL that cannot be read.
 */
export function clientTargetAttributes(url: string | undefined): Attributes {
  if (url === undefined) return {};
  let target = targets.get(url);
  if (target === undefined) {
    if (targets.size >= 1_000) targets.clear();
    target = readTarget(url);
    targets.set(url, target);
  }
  return target;
}

function readTarget(url: string): Attributes {
  try {
    const target = new URL(url);
    target.username = "";
    target.password = "";
    target.search = "";
    target.hash = "";
    return {
      [SEMCONV.urlFull]: target.href,
      [SEMCONV.serverAddress]: hostOf(target.hostname),
      [SEMCONV.serverPort]: portOf(target.port, target.protocol.slice(0, -1)),
    };
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
  const lower = scheme.toLowerCase();
  return {
    [SEMCONV.urlPath]: path === "" ? "/" : path,
    [SEMCONV.urlScheme]: lower,
    [SEMCONV.serverAddress]: hostOf(host),
    [SEMCONV.serverPort]: portOf(port, lower),
  };
}

/** The attributes of the requests seen last, by method and URL: a server sees few URLs, again and again. */
const requests = new Map<string, Attributes>();

/**
 * The attributes an HTTP server span starts with: {@link methodAttributes} and
 * {@link serverRequestAttributes}, made once per method and URL (at most 1,000 kept, URLs of up to
 * 256 characters). The object is shared: the SDK copies the attributes a span starts with.
 */
export function requestAttributes(method: string, url: string): Attributes {
  if (url.length > 256 || method.length > 32)
    return { ...methodAttributes(method), ...serverRequestAttributes(url) };
  const key = `${method.length}:${method}${url}`;
  let attributes = requests.get(key);
  if (attributes === undefined) {
    if (requests.size >= 1_000) requests.clear();
    attributes = { ...methodAttributes(method), ...serverRequestAttributes(url) };
    requests.set(key, attributes);
  }
  return attributes;
}

/** The class of a status, for metrics: `"2xx"` to `"5xx"`, or `"none"` when no response came. */
export const statusClassOf = (status: number | undefined): string =>
  status === undefined || status < 100 || status > 599 ? "none" : `${Math.floor(status / 100)}xx`;
