import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createWebhookDispatcher,
  type DeliveryAttempt,
  type DispatchInput,
  type WebhookDispatcher,
} from "../../dispatch/index.js";
import { digestHex } from "../../internal/bytes.js";
import { quote } from "../../internal/describe.js";
import { JSON_API_MEDIA_TYPE } from "../../jsonapi/index.js";
import { createEventsHandler, createMemoryIdempotencyStore, createNodeListener } from "../../server/index.js";
import { webhookEventTypes } from "../../webhooks/index.js";
import {
  contractDocument,
  deliverExampleWebhook,
  EXAMPLE_WEBHOOK_ROUTE,
  isContractPath,
  type RouteAnswer,
} from "./contractRoutes.js";
import { type ChaosFailure, createChaos } from "./createChaos.js";
import { createUlidGenerator } from "./createUlidGenerator.js";
import { crossSiteRefusal } from "./inspector/checkInspectorRequest.js";
import { createInspector, type Inspector } from "./inspector/createInspector.js";

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

const time = () => new Date().toISOString().slice(11, 23);

/** A value from a request, as a log shows it: plain when it is short visible ASCII, quoted otherwise. */
const shown = (value: string, limit = 60) =>
  /^[!#-~]+$/.test(value) && value.length <= limit ? value : quote(value, limit);

function errorBody(status: number, code: string, title: string, detail: string): string {
  return JSON.stringify({ errors: [{ status: String(status), code, title, detail }] });
}

/** What a log line shows of a created event, read from the response (a small JSON:API document). */
async function createdSummary(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as {
      data?: { id?: unknown; attributes?: Record<string, unknown> };
    };
    const id = body.data?.id;
    const type = body.data?.attributes?.eventType;
    return `${typeof id === "string" ? ` id=${shown(id)}` : ""}${typeof type === "string" ? ` type=${shown(type)}` : ""}`;
  } catch {
    return "";
  }
}

function attemptLine(attempt: DeliveryAttempt): string {
  const status = attempt.status === undefined ? "no answer" : String(attempt.status);
  const next =
    attempt.outcome === "retry" && attempt.retryAt !== undefined
      ? `, retry in ${Math.max(0, Math.round((attempt.retryAt - Date.now()) / 1000))}s`
      : "";
  const why = attempt.reason === undefined ? "" : ` (${quote(attempt.reason, 80)})`;
  return `webhook ${attempt.type} -> ${attempt.endpointId} attempt ${attempt.attempt}: ${status} ${attempt.outcome}${why}${next} ${Math.round(attempt.durationMs)}ms delivery=${attempt.deliveryId}`;
}

/**
 * The webhook a created event is delivered as: its own type when it is a webhook type, and
 * `s.message.delete` for `s.delete` (a deletion of a message, with the same content); `undefined`
 * for the types the service sends no webhook for.
 */
export function webhookTypeOf(type: string): string | undefined {
  if (type === "s.delete") return "s.message.delete";
  return (webhookEventTypes as readonly string[]).includes(type) ? type : undefined;
}

/** The room of a created event, when the request named one: `relationships.room.data.id`. */
function roomOf(relationships: unknown): string | undefined {
  const room = (relationships as { room?: { data?: { id?: unknown } } } | undefined)?.room?.data?.id;
  return typeof room === "string" ? room : undefined;
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
  const nextId = createUlidGenerator();
  const startedAt = Date.now();
  const counts = {
    requests: 0,
    created: 0,
    replayed: 0,
    refused: 0,
    failed: 0,
    attempts: 0,
    delivered: 0,
    dead: 0,
  };
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
  const dispatcher: WebhookDispatcher | undefined =
    options.webhookUrls.length === 0 || options.secret.length === 0
      ? undefined
      : createWebhookDispatcher({
          endpoints: options.webhookUrls.map((url, index) => ({
            id: `endpoint-${index + 1}`,
            url,
            secret: options.secret,
          })),
          // A local development tool sending where its user said: their receiver is on this machine
          // or their network, so no destination is refused.
          destinations: { allow: ["0.0.0.0/0", "::/0"] },
          ...(options.webhookRetryDelaysMs === undefined
            ? {}
            : { retry: { delaysMs: options.webhookRetryDelaysMs } }),
          ...(inspector === undefined ? {} : { queue: inspector.queue }),
          onAttempt: (attempt) => {
            counts.attempts++;
            if (attempt.outcome === "delivered") counts.delivered++;
            log(`${time()} ${attemptLine(attempt)}`);
            inspector?.recordAttempt(attempt);
          },
          onDead: (delivery) => {
            counts.dead++;
            log(`${time()} webhook delivery=${delivery.id} is dead: no more retries`);
            inspector?.recordDead(delivery);
          },
        });
  const principals = new Map<string, string>();
  const handler = createEventsHandler({
    store: createMemoryIdempotencyStore(),
    // The emulator binds to loopback by default: pages on any origin (a dev server) may call it.
    cors: { origins: ["*"] },
    async authorize(request) {
      const credentials = request.headers.get("authorization");
      if (credentials === null || credentials.trim() === "") return null;
      if (options.authorization !== undefined && credentials !== options.authorization) return null;
      // Keys are scoped per caller; the caller is named by a digest, never by its credentials.
      let principal = principals.get(credentials);
      if (principal === undefined) {
        principal = (await digestHex("SHA-256", credentials)).slice(0, 16);
        if (principals.size < 10_000) principals.set(credentials, principal);
      }
      return principal;
    },
    async create({ event, document }) {
      const id = nextId();
      const type = webhookTypeOf(event.type);
      if (dispatcher !== undefined && type !== undefined) {
        const roomId = roomOf(document.data.relationships);
        const input = {
          event: { type, content: event.content },
          ...(roomId === undefined ? {} : { roomId }),
        } as unknown as DispatchInput;
        try {
          const { deliveries } = await dispatcher.dispatch(input);
          inspector?.linkDeliveries(id, deliveries);
          log(`${time()} webhook ${type} id=${id}: ${deliveries.length} deliveries queued`);
        } catch (error) {
          log(
            `${time()} webhook ${type} id=${id} not dispatched: ${quote(String((error as Error)?.message), 120)}`,
          );
        }
      }
      return { id };
    },
  });

  const requestLog = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const response = await handler(request);
    const url = new URL(request.url);
    if (request.method === "POST") {
      counts.requests++;
      if (response.headers.get("idempotent-replayed") === "true") counts.replayed++;
      else if (response.status === 201) counts.created++;
      else if (response.status >= 500) counts.failed++;
      else if (response.status >= 400) counts.refused++;
    }
    const replayed = response.headers.get("idempotent-replayed") === "true" ? " replayed" : "";
    const key = request.headers.get("service-idempotency-key");
    const created = response.status === 201 ? await createdSummary(response) : "";
    log(
      `${time()} ${request.method} ${shown(url.pathname)} ${response.status}${replayed} ${Math.round(performance.now() - started)}ms${created}${key === null ? "" : ` key=${shown(key)}`}`,
    );
    return response;
  };
  const listener = createNodeListener(inspector?.observeRequests(requestLog) ?? requestLog);
  const chaos = createChaos(options.chaosRate, options.random);
  /** Late answers of chaos, by timer: a close sends them at once. */
  const slowAnswers = new Map<ReturnType<typeof setTimeout>, () => void>();

  const failOnPurpose = (req: IncomingMessage, res: ServerResponse, failure: ChaosFailure) => {
    const path = shown((req.url ?? "/").split("?")[0]!);
    log(`${time()} chaos ${failure}: ${req.method} ${path}`);
    if (failure === "503" || failure === "429") {
      req.resume();
      const status = Number(failure);
      res.writeHead(status, {
        "content-type": JSON_API_MEDIA_TYPE,
        ...(status === 429 ? { "retry-after": "1" } : {}),
      });
      res.end(
        status === 429
          ? errorBody(429, "ERR_RATE_LIMITED", "Too many requests", "chaos: retry after 1 second")
          : errorBody(503, "ERR_UNAVAILABLE", "Service unavailable", "chaos: the service is unavailable"),
      );
      return;
    }
    if (failure === "drop") {
      // Handled (the event may be created), but the answer is lost with the connection.
      listener(req, {
        writeHead: () => {},
        end: () => {
          req.socket.destroy();
        },
      });
      return;
    }
    const delay = 1000 + Math.floor(options.random() * 2000);
    let head: [number, string[]] = [200, []];
    listener(req, {
      writeHead: (status, headers) => {
        head = [status, headers];
      },
      end: (body) => {
        const send = () => {
          slowAnswers.delete(timer);
          res.writeHead(head[0], head[1]);
          res.end(body);
        };
        const timer = setTimeout(send, delay);
        slowAnswers.set(timer, send);
      },
    });
  };

  /** Writes the answer of one of the emulator's own routes (documents, example webhooks) and logs it. */
  const answerRoute = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    answer: Promise<RouteAnswer>,
  ) => {
    const started = performance.now();
    answer
      .catch((error: unknown) => ({
        status: 500,
        body: JSON.stringify({
          errors: [
            {
              status: "500",
              code: "ERR_INTERNAL",
              title: "Internal error",
              detail: quote(String((error as Error)?.message), 120),
            },
          ],
        }),
      }))
      .then(({ status, body }) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body);
        log(`${time()} ${req.method} ${shown(path)} ${status} ${Math.round(performance.now() - started)}ms`);
      });
  };

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
    if (req.method === "GET" && isContractPath(path)) {
      answerRoute(req, res, path, contractDocument(path));
      return;
    }
    if (req.method === "POST" && path.startsWith(EXAMPLE_WEBHOOK_ROUTE)) {
      req.resume();
      // A command line (curl) sends it; a page on another site must not make the emulator deliver.
      if (crossSiteRefusal(req.headers) !== undefined) {
        answerRoute(
          req,
          res,
          path,
          Promise.resolve({
            status: 403,
            body: JSON.stringify({
              errors: [
                {
                  status: "403",
                  code: "ERR_FORBIDDEN",
                  title: "Forbidden",
                  detail:
                    "example webhooks are delivered on a request from a command line, not from a page on another site",
                },
              ],
            }),
          }),
        );
        return;
      }
      let name: string | undefined;
      try {
        name = decodeURIComponent(path.slice(EXAMPLE_WEBHOOK_ROUTE.length));
      } catch {
        // Not percent-encoded UTF-8: no example has such a name.
        name = undefined;
      }
      answerRoute(
        req,
        res,
        path,
        name === undefined
          ? Promise.resolve({
              status: 400,
              body: JSON.stringify({
                errors: [
                  {
                    status: "400",
                    code: "ERR_BAD_REQUEST",
                    title: "Bad request",
                    detail: "the example's name is not percent-encoded UTF-8",
                  },
                ],
              }),
            })
          : deliverExampleWebhook(name, dispatcher),
      );
      return;
    }
    const failure = req.method === "POST" ? chaos() : undefined;
    if (failure !== undefined) failOnPurpose(req, res, failure);
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
        for (const [timer, send] of slowAnswers) {
          clearTimeout(timer);
          send();
        }
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
