import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeListener } from "../../server/index.js";
import { answerContractRoute } from "./answerContractRoute.js";
import { createChaosAnswers } from "./chaosAnswers.js";
import { createChaos } from "./createChaos.js";
import { createEmulatorDispatcher, createEmulatorHandler } from "./createEventsApi.js";
import { emptyCounts, logRequests } from "./emulatorLog.js";
import { createInspector, type Inspector } from "./inspector/createInspector.js";

export { webhookTypeOf } from "./createEventsApi.js";

/** How the emulator runs. */
export interface EmulatorOptions {
  readonly host: string;
  /** `0` picks a free port. */
  readonly port: number;
  /** Where webhooks of created events go. */
  readonly webhookUrls: readonly string[];
  /** The webhook signing secrets, newest first: the first signs (at least one with `webhookUrls`). */
  readonly secret: readonly string[];
  /** The only `Authorization` value accepted; any non-empty one when absent. */
  readonly authorization: string | undefined;
  /** The share of `POST` requests that fail on purpose, 0 to 1. */
  readonly chaosRate: number;
  /** Where chaos draws its numbers. */
  readonly random: () => number;
  /** The waits before each webhook retry; the dispatcher's default when absent. */
  readonly webhookRetryDelaysMs: readonly number[] | undefined;
  /** Writes one log line (without its line break). */
  readonly log: (line: string) => void;
  /** The inspector at `/_inspector`, keeping the newest `historySize` records; none when absent. */
  readonly inspector?: { readonly historySize: number } | undefined;
}

/** A running emulator. */
export interface Emulator {
  /** `http://host:port`. */
  readonly url: string;
  /** What it has done so far, for the summary line of a shutdown. */
  stats(): EmulatorStats;
  /** Stops taking connections, lets requests in flight finish, then stops delivering. */
  close(): Promise<void>;
}

/** The counts behind `serve`'s summary line. */
export interface EmulatorStats {
  /** `POST /events` requests answered, and of those: created (201), replayed, refused (4xx), failed (5xx). */
  readonly requests: number;
  readonly created: number;
  readonly replayed: number;
  readonly refused: number;
  readonly failed: number;
  /** Webhook attempts made, deliveries delivered, deliveries dead. */
  readonly attempts: number;
  readonly delivered: number;
  readonly dead: number;
  /** Since it started, in milliseconds. */
  readonly uptimeMs: number;
}

/**
 * Starts the emulator: `POST /events` answered by the library's idempotent handler with a memory
 * store and ULID ids; each created event of a webhook type dispatched, signed, to every webhook URL
 * with the dispatcher's retries; `GET /health` for readiness; the package's OpenAPI, AsyncAPI and
 * JSON Schema documents; `POST /webhooks/examples/<name>` to deliver an example webhook; chaos on the
 * other `POST` requests; with `inspector`, the inspector's page at `/_inspector`.
 */
export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const { log } = options;
  const startedAt = Date.now();
  const counts = emptyCounts();
  const inspector: Inspector | undefined =
    options.inspector === undefined
      ? undefined
      : createInspector({
          historySize: options.inspector.historySize,
          host: options.host,
          endpoints: new Map(options.webhookUrls.map((url, index) => [`endpoint-${index + 1}`, url])),
          secret: options.secret,
          authorization: options.authorization,
        });
  const dispatcher = createEmulatorDispatcher({
    webhookUrls: options.webhookUrls,
    secret: options.secret,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs,
    inspector,
    counts,
    log,
  });
  const handler = createEmulatorHandler({ authorization: options.authorization, dispatcher, inspector, log });
  const requestLog = logRequests(handler, counts, log);
  const listener = createNodeListener(inspector?.observeRequests(requestLog) ?? requestLog);
  const chaos = createChaos(options.chaosRate, options.random);
  const chaosAnswers = createChaosAnswers(listener, options.random, log);

  /** Answers not yet written to the end: a close sends them before it cuts connections. */
  const unanswered = new Set<ServerResponse>();
  let allAnswered: (() => void) | undefined;
  const server = createServer((req, res) => {
    unanswered.add(res);
    res.once("close", () => {
      unanswered.delete(res);
      if (unanswered.size === 0) allAnswered?.();
    });
    if (req.method === "GET" && (req.url === "/health" || req.url === "/")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "ok", service: "messaging-events emulator" }));
      return;
    }
    const path = (req.url ?? "/").split("?")[0]!;
    if (inspector?.owns(path)) {
      inspector.handle(req, res);
      return;
    }
    if (answerContractRoute(req, res, path, dispatcher, log)) return;
    const failure = req.method === "POST" ? chaos() : undefined;
    if (failure !== undefined) chaosAnswers.fail(req, res, failure);
    else listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    stats: () => ({ ...counts, uptimeMs: Date.now() - startedAt }),
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        inspector?.endStreams();
        // Requests in flight get up to ten seconds to be answered (the handler answers 503 to any
        // that come on a kept-alive connection meanwhile); late chaos answers go out now.
        await handler.close({ timeoutMs: 10_000 });
        chaosAnswers.sendLateAnswers();
        // The handler has answered; the answers may still be on their way out (a second at most).
        if (unanswered.size > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 1_000);
            allAnswered = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        // What is left is idle, or a body that never ends: a kept-alive connection must not hold the exit.
        server.closeAllConnections();
        await closed;
        await dispatcher?.close();
        await inspector?.close();
      })();
      return closing;
    },
  };
}
