import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebhookDispatcher } from "../../dispatch/index.js";
import { quote } from "../../internal/describe.js";
import {
  contractDocument,
  deliverExampleWebhook,
  EXAMPLE_WEBHOOK_ROUTE,
  isContractPath,
  type RouteAnswer,
} from "./contractRoutes.js";
import { shown, time } from "./emulatorLog.js";
import { crossSiteRefusal } from "./inspector/checkInspectorRequest.js";

/** A JSON:API error document with one error, as a route's answer. */
function errorAnswer(status: number, code: string, title: string, detail: string): RouteAnswer {
  return { status, body: JSON.stringify({ errors: [{ status: String(status), code, title, detail }] }) };
}

/** Writes the answer of one of the emulator's own routes (documents, example webhooks) and logs it. */
function answerRoute(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  answer: Promise<RouteAnswer>,
  log: (line: string) => void,
): void {
  const started = performance.now();
  answer
    .catch((error: unknown) =>
      errorAnswer(500, "ERR_INTERNAL", "Internal error", quote(String((error as Error)?.message), 120)),
    )
    .then(({ status, body }) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body);
      log(`${time()} ${req.method} ${shown(path)} ${status} ${Math.round(performance.now() - started)}ms`);
    });
}

/**
 * `POST /webhooks/examples/<name>`: 403 for a request from a page on another site, 400 for a name
 * that is not percent-encoded UTF-8, else the example delivered to every webhook URL.
 */
function exampleWebhook(
  req: IncomingMessage,
  path: string,
  dispatcher: WebhookDispatcher | undefined,
): Promise<RouteAnswer> {
  // A command line (curl) sends it; a page on another site must not make the emulator deliver.
  if (crossSiteRefusal(req.headers) !== undefined)
    return Promise.resolve(
      errorAnswer(
        403,
        "ERR_FORBIDDEN",
        "Forbidden",
        "example webhooks are delivered on a request from a command line, not from a page on another site",
      ),
    );
  let name: string;
  try {
    name = decodeURIComponent(path.slice(EXAMPLE_WEBHOOK_ROUTE.length));
  } catch {
    // Not percent-encoded UTF-8: no example has such a name.
    return Promise.resolve(
      errorAnswer(400, "ERR_BAD_REQUEST", "Bad request", "the example's name is not percent-encoded UTF-8"),
    );
  }
  return deliverExampleWebhook(name, dispatcher);
}

/**
 * Answers the routes of the package's contract: `GET` of a contract document (`/openapi.json`,
 * `/asyncapi.json`, `/json-schema/<file>.json`) and `POST /webhooks/examples/<name>`, logging each.
 * Returns whether `path` was one of them.
 */
export function answerContractRoute(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  dispatcher: WebhookDispatcher | undefined,
  log: (line: string) => void,
): boolean {
  if (req.method === "GET" && isContractPath(path)) {
    answerRoute(req, res, path, contractDocument(path), log);
    return true;
  }
  if (req.method === "POST" && path.startsWith(EXAMPLE_WEBHOOK_ROUTE)) {
    req.resume();
    answerRoute(req, res, path, exampleWebhook(req, path, dispatcher), log);
    return true;
  }
  return false;
}
