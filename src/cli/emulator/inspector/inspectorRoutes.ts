import type { IncomingMessage, ServerResponse } from "node:http";
import { actionRefusal, crossSiteRefusal, isOwnHost } from "./checkInspectorRequest.js";
import type { InspectorHistory } from "./createInspectorHistory.js";
import { INSPECTOR_PATH, type InspectorMessage } from "./InspectorRecord.js";
import { inspectorHtml, isAssetPath, readAsset } from "./inspectorAssets.js";
import { shippedExamples } from "./shippedExamples.js";

/** An action's answer: a status and a JSON body. */
type Action = (input: unknown, host: string) => Promise<{ readonly status: number; readonly body: unknown }>;

/** What the routes need from the inspector. */
export interface InspectorRouteOptions {
  readonly history: InspectorHistory;
  /** The `--host` the emulator listens on. */
  readonly host: string;
  readonly maxActionBytes: number;
  readonly actions: { readonly send: Action; readonly redeliver: Action };
}

/**
 * The policy of every answer: nothing inline, nothing from elsewhere, no HTML made from strings
 * (Trusted Types), never in a frame.
 */
export const INSPECTOR_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
  "require-trusted-types-for 'script'; trusted-types 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": INSPECTOR_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/** The most event streams open at once (tabs); more are refused. */
const MAX_STREAMS = 32;
/** A stream whose reader lags this many bytes beyond its snapshot is ended; it reconnects and starts from a snapshot. */
const MAX_STREAM_BACKLOG = 16 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));

/** Reads a JSON body of at most `limit` bytes; `undefined` when it is larger or not JSON. */
async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** The inspector's routes under {@link INSPECTOR_PATH}, with their checks, and its event streams. */
export function handleInspectorRequest(options: InspectorRouteOptions): {
  owns(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  endStreams(): void;
} {
  const { history } = options;
  const streams = new Set<ServerResponse>();

  const stream = (req: IncomingMessage, res: ServerResponse) => {
    if (streams.size >= MAX_STREAMS) {
      sendJson(res, 503, { error: `at most ${MAX_STREAMS} inspector pages at once` });
      return;
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      "x-accel-buffering": "no",
    });
    streams.add(res);
    let unsubscribe = () => {};
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    // Once a stream is ended (lagging, closing) nothing more is written to it: a write after the end
    // would be an unhandled error.
    const stop = () => {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    };
    const ended = () => res.writableEnded || res.destroyed;
    const write = (message: InspectorMessage) => {
      if (ended()) return stop();
      // Lagging behind the snapshot's own size by more than the backlog: let it start afresh.
      if (res.writableLength > snapshotBytes + MAX_STREAM_BACKLOG) {
        stop();
        res.end();
        return;
      }
      res.write(`data: ${JSON.stringify(message)}\n\n`);
    };
    res.on("error", stop);
    res.write("retry: 1000\n\n");
    let snapshotBytes = 0;
    // The history's byte limit bounds the snapshot: its records' JSON, a comma each, the envelope.
    // Every later message is one record, bounded by what is kept of each document and attempt.
    write({ type: "snapshot", limits: history.limits, records: history.records() });
    snapshotBytes = res.writableLength;
    unsubscribe = history.subscribe((record) => write({ type: "record", record }));
    heartbeat = setInterval(() => {
      if (ended()) stop();
      else res.write(": heartbeat\n\n");
    }, HEARTBEAT_MS);
    heartbeat.unref?.();
    res.once("close", stop);
    req.once("close", stop);
  };

  const act = (req: IncomingMessage, res: ServerResponse, action: Action) => {
    const refusal = actionRefusal(req.headers);
    if (refusal !== undefined) {
      req.resume();
      sendJson(res, 403, { error: refusal });
      return;
    }
    readJson(req, options.maxActionBytes)
      .then((input) =>
        input === undefined
          ? {
              status: 400,
              body: { error: `the body must be JSON of at most ${options.maxActionBytes} bytes` },
            }
          : action(input, req.headers.host ?? ""),
      )
      .catch(() => ({ status: 500, body: { error: "the action failed" } }))
      .then(({ status, body }) => sendJson(res, status, body));
  };

  const routes: Readonly<Record<string, (req: IncomingMessage, res: ServerResponse) => void>> = {
    [`GET ${INSPECTOR_PATH}`]: (_req, res) => send(res, 200, "text/html; charset=utf-8", inspectorHtml),
    [`GET ${INSPECTOR_PATH}/`]: (_req, res) => send(res, 200, "text/html; charset=utf-8", inspectorHtml),
    [`GET ${INSPECTOR_PATH}/stream`]: stream,
    [`GET ${INSPECTOR_PATH}/api/examples`]: (_req, res) => {
      shippedExamples()
        .then((examples) => sendJson(res, 200, { examples }))
        .catch(() => sendJson(res, 500, { error: "the examples could not be read" }));
    },
    [`POST ${INSPECTOR_PATH}/api/send`]: (req, res) => act(req, res, options.actions.send),
    [`POST ${INSPECTOR_PATH}/api/redeliver`]: (req, res) => act(req, res, options.actions.redeliver),
  };

  return {
    owns: (path) => path === INSPECTOR_PATH || path.startsWith(`${INSPECTOR_PATH}/`),
    handle(req, res) {
      const path = (req.url ?? "/").split("?")[0]!;
      if (!isOwnHost(req.headers.host, req.socket.localPort ?? 0, options.host)) {
        req.resume();
        send(
          res,
          421,
          "text/plain; charset=utf-8",
          "The inspector answers only at the emulator's own address.\n",
        );
        return;
      }
      const route = routes[`${req.method} ${path}`];
      const isPage = path === INSPECTOR_PATH || path === `${INSPECTOR_PATH}/`;
      const refusal = isPage || isAssetPath(path) ? undefined : crossSiteRefusal(req.headers);
      if (refusal !== undefined) {
        req.resume();
        sendJson(res, 403, { error: refusal });
      } else if (route !== undefined) route(req, res);
      else if (req.method === "GET" && isAssetPath(path)) {
        readAsset(path).then((asset) =>
          asset === undefined
            ? send(
                res,
                503,
                "text/plain; charset=utf-8",
                "The inspector's page is not built: npm run build.\n",
              )
            : send(res, 200, asset.type, asset.body),
        );
      } else {
        req.resume();
        sendJson(res, Object.keys(routes).some((key) => key.endsWith(` ${path}`)) ? 405 : 404, {
          error: "no such inspector route",
        });
      }
    },
    endStreams() {
      for (const res of streams) {
        // Its own close listener unsubscribes it; ending it first makes every later write a no-op.
        res.end();
        res.emit("close");
      }
      streams.clear();
    },
  };
}
