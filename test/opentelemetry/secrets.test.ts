/**
 * No secret, credential, signature, idempotency key, principal, error message or body content in
 * any span, attribute, span event, link or metric: every instrumented path runs (the client and the
 * handler over a socket, with a retry, a replay, a reused key and a network error; the dispatcher
 * with a retry, a delivery, a 410 and a refused destination; the receiver and the verifier with
 * valid, forged and failing webhooks), with distinctive values for each of those, and then every
 * exported span and metric, every argument the components handed their telemetry (the handler's
 * `Request` aside: it is handed so that the trace context can be read from it) and every `onRetry`
 * call are scanned for them.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsClient, type EventsClientRetry } from "../../src/client/index.js";
import { createMemoryDeliveryQueue, createWebhookDispatcher } from "../../src/dispatch/index.js";
import type { OpenTelemetryInstrumentation } from "../../src/opentelemetry/index.js";
import { createEventsHandler, createNodeListener } from "../../src/server/index.js";
import {
  createWebhookReceiver,
  createWebhookRequest,
  createWebhookVerifier,
  signWebhook,
  WEBHOOK_ID_HEADER,
} from "../../src/webhooks/index.js";
import { type Receiver, startReceiver } from "../dispatch/receiver.js";
import { type InMemorySdk, startInMemorySdk } from "./sdk.js";

const AUTHORIZATION = "Bearer tok_SECRET_auth_4f1c";
const WEBHOOK_SECRET = "whsec_SECRET_webhook_9d2e";
const BODY = "BODY_SECRET_content_7a3b";
const KEY = "key_SECRET_idem_1e5f";
const QUERY = "QUERY_SECRET_8c4d";
const ENDPOINT_HEADER = "HEADER_SECRET_2b6a";
const PRINCIPAL = "PRINCIPAL_SECRET_tenant";
const ERROR_MESSAGE = "ERROR_MESSAGE_SECRET_db";
/** Signatures seen on the wire, added as they are made. */
const signatures = new Set<string>();

let sdk: InMemorySdk;
/** Every argument the components handed their telemetry, but the handler's `Request`. */
const handed: unknown[] = [];
const retries: EventsClientRetry[] = [];

/** The instrumentation, recording every argument of every call, down through the handles it returns. */
function recording<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        for (const arg of args) if (!(arg instanceof Request) && typeof arg !== "function") handed.push(arg);
        const result = Reflect.apply(value, object, args);
        return typeof result === "object" && result !== null ? recording(result) : result;
      };
    },
  });
}

beforeAll(() => {
  sdk = startInMemorySdk();
});
afterAll(async () => {
  await sdk.shutdown();
});

async function runClientAndHandler(telemetry: OpenTelemetryInstrumentation): Promise<void> {
  let failures = 1;
  const handler = createEventsHandler({
    authorize: (request) => (request.headers.get("authorization") === AUTHORIZATION ? PRINCIPAL : null),
    create: async () => {
      if (failures-- > 0) throw new Error(ERROR_MESSAGE);
      return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
    },
    onError: () => undefined,
    telemetry,
  });
  const server = createServer(createNodeListener(handler)).listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const client = createEventsClient({
    baseUrl: `http://127.0.0.1:${port}/?apikey=${QUERY}`,
    authorization: async () => AUTHORIZATION,
    retry: { delaysMs: [10, 10], jitter: 0 },
    onRetry: (retry) => retries.push(retry),
    telemetry,
  });
  const event = { type: "s.message.text" as const, content: { body: BODY } };
  await client.createEvent(event, { idempotencyKey: KEY }); // a 500, a retry, then 201
  await client.createEvent(event, { idempotencyKey: KEY }); // replayed
  await client
    .createEvent({ ...event, content: { body: `${BODY}!` } }, { idempotencyKey: KEY })
    .catch(() => undefined);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await handler.close();
  // A network error: nothing listens any more.
  await client.createEvent(event, { idempotencyKey: `${KEY}-2` }).catch(() => undefined);
}

async function runDispatcher(telemetry: OpenTelemetryInstrumentation, receivers: Receiver[]): Promise<void> {
  const flaky = await startReceiver([WEBHOOK_SECRET], (request, index) => {
    signatures.add(String(request.headers["service-signature"]));
    return { status: index === 0 ? 500 : 204 };
  });
  const gone = await startReceiver([WEBHOOK_SECRET], (request) => {
    signatures.add(String(request.headers["service-signature"]));
    return { status: 410 };
  });
  receivers.push(flaky, gone);
  const queue = createMemoryDeliveryQueue();
  const dispatcher = createWebhookDispatcher({
    endpoints: async () => [
      {
        id: "flaky",
        url: `${flaky.url}?apikey=${QUERY}`,
        secret: WEBHOOK_SECRET,
        headers: { "x-api-key": ENDPOINT_HEADER },
      },
      { id: "gone", url: gone.url, secret: [WEBHOOK_SECRET] },
      { id: "refused", url: "http://hooks.customer.example/hooks", secret: WEBHOOK_SECRET },
    ],
    destinations: {
      allow: ["127.0.0.1"],
      resolve: async (name) => (name === "hooks.customer.example" ? ["10.0.0.5"] : ["127.0.0.1"]),
    },
    queue,
    retry: { delaysMs: [10], jitter: 0 },
    telemetry,
  });
  await dispatcher.dispatch({ event: { type: "s.message.text", content: { body: BODY } }, roomId: "room-1" });
  await queue.idle();
  await sdk.metrics();
  await dispatcher.close();
  await queue.close();
}

async function runReceiverAndVerifier(telemetry: OpenTelemetryInstrumentation): Promise<void> {
  const payload = { type: "s.message.text", version: 2, content: { body: BODY }, roomId: "room-1" } as const;
  let fail = false;
  const receiver = createWebhookReceiver({
    secret: WEBHOOK_SECRET,
    onAny: () => {
      if (fail) throw new Error(ERROR_MESSAGE);
    },
    telemetry,
  });
  const request = async (secret: string, id: string) => {
    const made = await createWebhookRequest("https://receiver.example/hooks", { payload, secret });
    made.headers.set(WEBHOOK_ID_HEADER, id);
    signatures.add(made.headers.get("service-signature") ?? "");
    return made;
  };
  await receiver.fetch(await request(WEBHOOK_SECRET, "delivery-1"));
  await receiver.fetch(await request("whsec_SECRET_wrong", "delivery-2"));
  fail = true;
  await receiver.fetch(await request(WEBHOOK_SECRET, "delivery-3"));
  await receiver.close();
  const verifier = createWebhookVerifier({ secret: WEBHOOK_SECRET, telemetry });
  const signed = await signWebhook({ payload, secret: WEBHOOK_SECRET });
  signatures.add(signed.headers["service-signature"]);
  await verifier.safeVerify(signed);
  await verifier.safeVerify({ ...signed, body: signed.body.replace(BODY, `${BODY}?`) });
}

describe("what telemetry records", () => {
  it("holds no secret, credential, signature, key, principal, error message or body", async () => {
    const telemetry = recording(sdk.telemetry);
    const receivers: Receiver[] = [];
    try {
      await runClientAndHandler(telemetry);
      await runDispatcher(telemetry, receivers);
      await runReceiverAndVerifier(telemetry);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
    const spans = sdk.spans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links.map((link) => ({ context: link.context, attributes: link.attributes })),
      status: span.status,
    }));
    const metrics = await sdk.collect();
    // Every path ran: the scan would prove nothing otherwise.
    const names = new Set(spans.map((span) => span.name));
    for (const name of [
      "messaging_events.create_event",
      "POST",
      "POST /events",
      "messaging_events.idempotency_store.claim",
      "messaging_events.idempotency_store.release",
      "messaging_events.idempotency_store.complete",
      "messaging_events.dispatch",
      "messaging_events.webhook.receive",
      "messaging_events.webhook.verify",
    ]) {
      expect(names, name).toContain(name);
    }
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(spans.some((span) => span.events.length > 0)).toBe(true);
    expect(metrics.scopeMetrics.flatMap((scope) => scope.metrics).length).toBeGreaterThanOrEqual(4);
    expect(signatures.size).toBeGreaterThanOrEqual(5);

    const recorded = {
      spans: JSON.stringify(spans),
      metrics: JSON.stringify(metrics.scopeMetrics),
      "telemetry arguments": JSON.stringify(handed),
      "onRetry arguments": JSON.stringify(retries),
    };
    const secrets = [
      AUTHORIZATION,
      "tok_SECRET",
      WEBHOOK_SECRET,
      "whsec_SECRET",
      BODY,
      KEY,
      QUERY,
      ENDPOINT_HEADER,
      PRINCIPAL,
      ERROR_MESSAGE,
      ...signatures,
      // The same MACs as the receiver keys its replays on: lowercase hex.
      ...[...signatures].map((signature) => Buffer.from(signature, "base64url").toString("hex")),
    ];
    for (const [where, text] of Object.entries(recorded)) {
      expect(text.length, where).toBeGreaterThan(100);
      for (const secret of secrets) expect(text.includes(secret), `${where} holds ${secret}`).toBe(false);
    }
  });
});
