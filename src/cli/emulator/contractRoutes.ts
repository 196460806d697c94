import type { DispatchInput, WebhookDispatcher } from "../../dispatch/index.js";
import { readContractFile } from "../readContractFile.js";

/** An answer of one of the emulator's own routes. */
export interface RouteAnswer {
  readonly status: number;
  readonly body: string;
}

const json = (status: number, value: unknown): RouteAnswer => ({ status, body: JSON.stringify(value) });

const notFound = (what: string, detail: string): RouteAnswer =>
  json(404, {
    errors: [{ status: "404", code: "ERR_NOT_FOUND", title: "Not found", detail: `${what}: ${detail}` }],
  });

/** A file name the emulator serves: letters, digits, dots and hyphens, ending in `.json`. */
const FILE = /^[A-Za-z0-9][A-Za-z0-9.-]*\.json$/;

/** Whether a `GET` path is one of the package's contract documents: `/openapi.json`, `/asyncapi.json`, `/json-schema/<file>.json`. */
export function isContractPath(path: string): boolean {
  return (
    path === "/openapi.json" ||
    path === "/asyncapi.json" ||
    (path.startsWith("/json-schema/") && FILE.test(path.slice("/json-schema/".length)))
  );
}

/**
 * The contract document at `path`, byte for byte as the package ships it. The OpenAPI document
 * refers to its schemas as `./json-schema/<file>.json`, which resolve against its URL here too.
 */
export async function contractDocument(path: string): Promise<RouteAnswer> {
  const text = await readContractFile(path.slice(1));
  return text === undefined ? notFound("no such document", path) : { status: 200, body: text };
}

/** The prefix of the route that delivers an example webhook: `POST /webhooks/examples/<name>`. */
export const EXAMPLE_WEBHOOK_ROUTE = "/webhooks/examples/";

/**
 * Delivers the package's example payload `name` (messaging-events/examples/webhooks/<name>.json) to
 * every webhook URL, signed, with the dispatcher's retries: 202 with the delivery ids; 404 for an
 * unknown name; 409 when the emulator was started without a webhook URL.
 */
export async function deliverExampleWebhook(
  name: string,
  dispatcher: WebhookDispatcher | undefined,
): Promise<RouteAnswer> {
  const text = /^[a-z][a-z.]*(?:--[a-z-]+)?$/.test(name)
    ? await readContractFile(`examples/webhooks/${name}.json`)
    : undefined;
  if (text === undefined)
    return notFound("no example webhook is named so", JSON.stringify(name.slice(0, 60)));
  if (dispatcher === undefined) {
    return json(409, {
      errors: [
        {
          status: "409",
          code: "ERR_NO_WEBHOOK_URL",
          title: "No webhook URL",
          detail: "the emulator delivers webhooks only when started with --webhook-url and a secret",
        },
      ],
    });
  }
  const { eventId, deliveries } = await dispatcher.dispatch(JSON.parse(text) as DispatchInput);
  return json(202, { example: name, eventId, deliveries });
}
