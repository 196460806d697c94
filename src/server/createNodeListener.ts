import { REPORT_ERROR, type ReportError } from "./RequestErrors.js";

/**
 * The parts of a Node.js `IncomingMessage` (node:http, Express, Connect) that the adapter reads:
 * typed by shape, so this library needs no Node.js types.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { NodeRequestLike } from "messaging-events/server";
 *
 * function describe(req: NodeRequestLike): string {
 *   return `${req.method} ${req.url}`;
 * }
 * ```
 */
export interface NodeRequestLike {
  /** The request method. */
  readonly method?: string | undefined;
  /** The request target (path and query). */
  readonly url?: string | undefined;
  /** The header names and values as received, alternating (repeated headers stay repeated). */
  readonly rawHeaders: readonly string[];
  /** The connection; a TLS socket (node:https) has `encrypted: true`, which makes the URL `https:`. */
  readonly socket?: unknown;
  /** Whether the body stream was read already (a body parser ran first). */
  readonly readableDidRead?: boolean;
  /** Whether the body stream has ended (a body parser read it to the end). */
  readonly readableEnded?: boolean;
  /** What a body parser left (`express.json`, `express.raw`, …): its presence means the body was read. */
  readonly body?: unknown;
  /** Subscribes to the body stream's chunks. */
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** Subscribes to the end of the body stream, or to the connection closing. */
  on(event: "end" | "close", listener: () => void): unknown;
  /** Subscribes to the body stream's errors. */
  on(event: "error", listener: (error: unknown) => void): unknown;
  /** Unsubscribes from the body stream's chunks. */
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** Unsubscribes from the end of the body stream, or from the connection closing. */
  off(event: "end" | "close", listener: () => void): unknown;
  /** Unsubscribes from the body stream's errors. */
  off(event: "error", listener: (error: unknown) => void): unknown;
  /** Stops the flow of `data` events. */
  pause(): unknown;
  /** Resumes the flow of `data` events. */
  resume(): unknown;
}

/**
 * The parts of a Node.js `ServerResponse` that the adapter writes.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { NodeResponseLike } from "messaging-events/server";
 *
 * function answerNoContent(res: NodeResponseLike): void {
 *   res.writeHead(204, []);
 *   res.end();
 * }
 * ```
 */
export interface NodeResponseLike {
  /** Sends the status line and headers (names and values alternating, or pairs). */
  writeHead(status: number, headers: string[]): unknown;
  /** Sends the body, if any, and finishes the response. */
  end(body?: Uint8Array): unknown;
}

/**
 * Wraps a Fetch handler (`createEventsHandler`) as a Node.js request listener, `(req, res) => void`,
 * for `node:http`, `node:https`, Express and Connect. Repeated request headers stay repeated (the
 * handler sees them joined and refuses a repeated idempotency key); the body is streamed to the
 * handler, which stops reading at its limit, and then the connection is closed after the answer
 * rather than reading the rest. Mount it before any body parser: a request whose body a parser
 * already consumed (`express.json`, `express.raw`, `bodyParser`) answers 500 `ERR_BODY_ALREADY_READ`
 * at once, with that fix in its message, rather than waiting for a body that never comes.
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createEventsHandler, createNodeListener } from "messaging-events/server";
 *
 * const handler = createEventsHandler({
 *   authorize: () => "demo-tenant",
 *   create: async () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
 * });
 * const server = createServer(createNodeListener(handler));
 * server.listen(0, "127.0.0.1", () => server.close(() => handler.close()));
 * ```
 */
export function createNodeListener(
  handler: (request: Request) => Promise<Response>,
  /** @internal The answer when the request cannot be turned into a Fetch Request. */
  unreadable: (cause: unknown) => Response = internalError,
): (req: NodeRequestLike, res: NodeResponseLike) => void {
  return (req, res) => {
    answer(handler, req, res, unreadable).catch(() => undefined);
  };
}

/** Whether a body parser consumed the body before the listener saw it (it would never arrive). */
function bodyConsumed(req: NodeRequestLike): boolean {
  const read = (name: "readableDidRead" | "readableEnded" | "body"): unknown => {
    try {
      return req[name];
    } catch {
      return undefined;
    }
  };
  if (read("readableDidRead") === true || read("readableEnded") === true) return true;
  const body = read("body");
  // express.json leaves `{}` on a request it did not parse (another media type): the body is still there.
  return (
    body !== undefined &&
    !(
      typeof body === "object" &&
      body !== null &&
      Object.getPrototypeOf(body) === Object.prototype &&
      Object.keys(body).length === 0
    )
  );
}

/** Runs a report; a request Fetch cannot express (a forbidden method) is not reported, and still answered. */
function reportSafely(report: () => void): void {
  try {
    report();
  } catch {}
}

const bodyAlreadyRead = () =>
  new Response(
    JSON.stringify({
      errors: [
        {
          status: "500",
          code: "ERR_BODY_ALREADY_READ",
          title: "Body already read",
          detail:
            "the request body was consumed by a body parser before createNodeListener: mount the events handler before any body parser (express.json, express.raw, bodyParser)",
        },
      ],
    }),
    { status: 500, headers: { "content-type": "application/vnd.api+json" } },
  );

const internalError = () =>
  new Response(
    JSON.stringify({
      errors: [
        { status: "500", code: "ERR_INTERNAL", title: "Internal error", detail: "the request failed" },
      ],
    }),
    { status: 500, headers: { "content-type": "application/vnd.api+json" } },
  );

/** The request's body as a stream that pulls from Node's stream only as fast as it is read. */
function bodyOf(req: NodeRequestLike): { stream: ReadableStream<Uint8Array>; finished: () => boolean } {
  let finished = false;
  let detach = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Uint8Array) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        const onEnd = () => {
          finished = true;
          detach();
          controller.close();
        };
        const onError = (error: unknown) => {
          detach();
          controller.error(error);
        };
        detach = () => {
          req.off("data", onData);
          req.off("end", onEnd);
          req.off("error", onError);
        };
        req.on("data", onData);
        req.on("end", onEnd);
        req.on("error", onError);
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: 1 },
  );
  return { stream, finished: () => finished };
}

async function answer(
  handler: (request: Request) => Promise<Response>,
  req: NodeRequestLike,
  res: NodeResponseLike,
  unreadable: (cause: unknown) => Response,
): Promise<void> {
  let response: Response;
  let body: ReturnType<typeof bodyOf> | undefined;
  try {
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      try {
        headers.append(raw[i]!, raw[i + 1]!);
      } catch {
        // A header Fetch cannot hold is left out.
      }
    }
    const scheme =
      (req.socket as { encrypted?: unknown } | null | undefined)?.encrypted === true ? "https" : "http";
    const host = headers.get("host") ?? "localhost";
    let url: URL;
    try {
      url = new URL(req.url ?? "/", `${scheme}://${host}`);
    } catch {
      url = new URL(req.url ?? "/", `${scheme}://localhost`);
    }
    const method = req.method ?? "GET";
    const hasBody = method !== "GET" && method !== "HEAD";
    if (hasBody && bodyConsumed(req)) {
      response = bodyAlreadyRead();
      const report = (handler as { [REPORT_ERROR]?: ReportError })[REPORT_ERROR];
      if (typeof report === "function") {
        reportSafely(() =>
          report(
            new Request(url, { method, headers }),
            "body",
            new Error(
              "the request body was consumed by a body parser before createNodeListener: mount the events handler before any body parser",
            ),
            500,
          ),
        );
      }
    } else {
      if (hasBody) body = bodyOf(req);
      response = await handler(
        new Request(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body: body.stream, duplex: "half" }),
        } as RequestInit),
      );
    }
  } catch (cause) {
    response = unreadable(cause);
  }
  const bytes = new Uint8Array(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  try {
    if (body !== undefined && !body.finished()) {
      // The rest of the body was not read: close the connection rather than drain it.
      headers.push("connection", "close");
      req.resume();
    }
    res.writeHead(response.status, headers);
    res.end(bytes);
  } catch {
    // Already answered (a middleware wrote first), or the connection is gone.
  }
}
