/**
 * The dispatcher's transport on Node.js: node:http and node:https reached through
 * `process.getBuiltinModule` (no `node:` import, so the module still loads on Deno, Bun, workers and
 * browsers), with every connection pinned to the address a checked lookup returned, so that DNS
 * rebinding cannot slip an internal address in between the check and the connect.
 */

import {
  loadNodeModules,
  type NodeClientRequest,
  type NodeHttp,
  type NodeIncomingMessage,
  type NodeRequestOptions,
} from "./nodeModules.js";

/**
 * Resolves a host name (or an address literal) to the one address to connect to, refusing forbidden
 * ones by throwing. Supplied by the dispatcher.
 *
 * Internal to `messaging-events/dispatch` (not exported).
 *
 * @example
 * ```ts
 * const lookup: CheckedLookup = async (hostname) => {
 *   if (hostname !== "receiver.test") throw new Error("not allowed");
 *   return { address: "192.0.2.10", family: 4 };
 * };
 * ```
 */
export type CheckedLookup = (
  hostname: string,
) => Promise<{ readonly address: string; readonly family: 4 | 6 }>;

/**
 * A fetch-shaped function, as the dispatcher calls it.
 *
 * Internal to `messaging-events/dispatch` (not exported).
 *
 * @example
 * ```ts
 * const transport: Transport = (input, init) => fetch(input, init);
 * ```
 */
export type Transport = (input: string, init: RequestInit) => Promise<Response>;

/**
 * What {@link createNodeTransport} needs.
 *
 * Internal to `messaging-events/dispatch` (not exported).
 *
 * @example
 * ```ts
 * const options: NodeTransportOptions = { lookup: async () => ({ address: "192.0.2.10", family: 4 }) };
 * ```
 */
export interface NodeTransportOptions {
  /** Called once per request, before any socket opens; the connection goes to exactly its answer. */
  readonly lookup: CheckedLookup;
  /**
   * PEM certificates to trust for HTTPS *instead of* Node's bundled roots (Node's `ca` semantics).
   * @default Node's bundled root certificates
   */
  readonly ca?: string | readonly string[];
}

/**
 * A transport over node:http / node:https whose every connection goes to the address `lookup` returned
 * for the URL's host (checked once per request, then pinned: the socket connects to exactly that
 * address, TLS still verifies the certificate against the host name and sends it as SNI, never an IP
 * as SNI). Redirects are never followed: a 3xx comes back as it is. Failures reject with a
 * `TypeError("fetch failed")` whose `cause` carries Node's `code` (`ECONNREFUSED`, …), as Node's fetch
 * does; no message holds the URL. Returns undefined where this is not Node.js itself (no
 * `process.getBuiltinModule`, or Bun / Deno, whose node:http emulation is not trusted to honour the pin).
 *
 * Internal to `messaging-events/dispatch` (not exported).
 *
 * @example
 * ```ts
 * const transport = createNodeTransport({ lookup: async () => ({ address: "192.0.2.10", family: 4 }) });
 * const response = await transport?.("https://receiver.test/hook", { method: "POST", body: "{}" });
 * ```
 */
export function createNodeTransport(options: NodeTransportOptions): Transport | undefined {
  const node = loadNodeModules();
  if (node === undefined) return undefined;
  const { lookup } = options;
  const ca =
    options.ca === undefined ? undefined : typeof options.ca === "string" ? [options.ca] : [...options.ca];
  // Keep-alive versus pinning: each request connects to the checked address itself (`host` is that
  // address, the name only in `Host` and SNI), and `host` is part of the key Node's agents pool
  // sockets under (`getName`: host:port:localAddress:family, plus servername and the TLS options for
  // https). A socket is therefore only ever reused for a request whose own lookup answered the same
  // address; after a rebinding the request opens a new socket to the new address. The idle sockets
  // close before Node's default server keep-alive time-out (5 s), so a reused one is rarely stale.
  const agents = {
    "http:": new node.http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    "https:": new node.https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, ...(ca && { ca }) }),
  };
  return async (input, init) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    const url = parseUrl(input);
    const method = normalizeMethod(init.method);
    const body = encodeBody(init.body, method);
    const headers = requestHeaders(init.headers, url.host, body);
    // URL keeps IPv6 literals in brackets; the lookup (and net.isIP) want them bare.
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const answer = await untilAborted(lookup(hostname), signal);
    const family = node.net.isIP(answer.address);
    if (family === 0) throw new TypeError("the lookup answered something that is not an IP address");
    const https = url.protocol === "https:";
    const request: NodeRequestOptions = {
      host: answer.address,
      family,
      port: url.port === "" ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      agent: agents[url.protocol as "http:" | "https:"],
      // SNI and the certificate check use the name; an IP literal host sends no SNI and is checked
      // against the address connected to, which a checked lookup hands back unchanged.
      ...(https && { servername: node.net.isIP(hostname) === 0 ? hostname.replace(/\.$/, "") : "" }),
    };
    if (signal?.aborted) throw abortReason(signal);
    return exchange(https ? node.https : node.http, request, body, method, signal);
  };
}

/** How long an idle keep-alive socket is kept, under Node's default server keep-alive time-out (5 s). */
const IDLE_SOCKET_MS = 4_000;

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = /* @__PURE__ */ new Set([101, 103, 204, 205, 304]);

/** Request headers the transport owns: framing and the connection are node:http's business. */
const OWNED_REQUEST_HEADERS = /* @__PURE__ */ new Set([
  "connection",
  "content-length",
  "expect",
  "host",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** A reason phrase the Response constructor accepts (HTAB, SP, VCHAR, obs-text). */
const REASON_PHRASE = /^[\t -~\u0080-\u00ff]*$/;

function parseUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    // Not rethrown: Node's URL error holds the input, which may hold a secret.
    throw new TypeError("the URL is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError("the URL's scheme must be http or https");
  if (url.username !== "" || url.password !== "") throw new TypeError("the URL must not hold credentials");
  return url;
}

/** Upper-cases the methods fetch normalises; others go as they are (node:http checks the token). */
function normalizeMethod(method: string | undefined): string {
  if (method === undefined) return "GET";
  const upper = method.toUpperCase();
  return ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].includes(upper) ? upper : method;
}

function encodeBody(body: RequestInit["body"], method: string): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (method === "GET" || method === "HEAD") throw new TypeError(`a ${method} request cannot have a body`);
  if (typeof body === "string") return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError("the request body must be a string, a Uint8Array or an ArrayBuffer");
}

/** A record, a Headers or pairs, as fetch takes them, into node:http's form with `Host` and the length. */
function requestHeaders(
  init: RequestInit["headers"],
  host: string,
  body: Uint8Array | undefined,
): Record<string, string> {
  // Null prototype: a header named `__proto__` stays a header.
  const headers: Record<string, string> = Object.create(null);
  new Headers(init).forEach((value, name) => {
    if (!OWNED_REQUEST_HEADERS.has(name)) headers[name] = value;
  });
  // The socket goes to an address, so node:http would put that address in Host: the URL's host goes.
  headers.host = host;
  if (body !== undefined) headers["content-length"] = String(body.byteLength);
  return headers;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits for `promise`, rejecting with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** A network failure as Node's fetch reports one: the message says nothing, the cause has the `code`. */
function networkError(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

/**
 * Sends the request and resolves to the Response once its head has come; the body streams as the
 * consumer reads it (the socket is paused whenever nobody is reading). The signal covers both.
 */
function exchange(
  client: NodeHttp,
  options: NodeRequestOptions,
  body: Uint8Array | undefined,
  method: string,
  signal: AbortSignal | undefined,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let responded = false;
    let done = false;
    let message: NodeIncomingMessage | undefined;
    let bodyController: ReadableStreamDefaultController<Uint8Array> | undefined;

    const stop = () => {
      done = true;
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: unknown) => {
      if (done) return;
      stop();
      if (!responded) reject(error);
      else bodyController?.error(error);
      request.destroy();
      message?.destroy();
    };
    const complete = () => {
      if (done) return;
      stop();
      bodyController?.close();
    };
    const onAbort = () => {
      if (signal !== undefined) fail(abortReason(signal));
    };

    let request: NodeClientRequest;
    try {
      request = client.request(options);
    } catch (error) {
      // An invalid method or header value, found before anything is sent.
      reject(networkError(error));
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => fail(networkError(error)));
    request.on("response", (incoming) => {
      message = incoming;
      incoming.pause();
      incoming.on("error", (error) => fail(networkError(error)));
      incoming.on("end", complete);
      // Closed before its end: the connection broke mid-body.
      incoming.on("close", () =>
        fail(
          networkError(Object.assign(new Error("the connection closed mid-body"), { code: "ECONNRESET" })),
        ),
      );
      const status = incoming.statusCode ?? 0;
      if (status < 200 || status > 599) {
        fail(new TypeError(`the server answered with status ${status}, outside 200 to 599`));
        return;
      }
      const headers = new Headers();
      let response: Response;
      try {
        const raw = incoming.rawHeaders;
        for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
        const statusMessage = incoming.statusMessage ?? "";
        const init = { status, statusText: REASON_PHRASE.test(statusMessage) ? statusMessage : "", headers };
        if (NULL_BODY_STATUSES.has(status) || method === "HEAD") {
          response = new Response(null, init);
          // Nothing to read; letting it end frees the socket for the next request.
          incoming.resume();
        } else {
          response = new Response(
            new ReadableStream<Uint8Array>(
              {
                start(controller) {
                  bodyController = controller;
                  incoming.on("data", (chunk) => {
                    if (done) return;
                    // A copy: node's chunks may share memory with one another.
                    controller.enqueue(new Uint8Array(chunk));
                    if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
                  });
                },
                pull() {
                  incoming.resume();
                },
                cancel() {
                  stop();
                  // Destroying an unfinished response destroys its socket: no other request gets it.
                  incoming.destroy();
                },
              },
              // Read only when the consumer asks: nothing ahead of it beyond node's and the kernel's buffers.
              { highWaterMark: 0 },
            ),
            init,
          );
        }
      } catch (error) {
        fail(networkError(error));
        return;
      }
      responded = true;
      resolve(response);
    });
    request.end(body);
  });
}
