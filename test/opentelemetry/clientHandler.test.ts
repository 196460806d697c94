/**
 * The client against the events handler over a real socket on 127.0.0.1, both instrumented with the
 * real OpenTelemetry SDK: one create, retried once after a 500, is ONE trace across both sides (the
 * client's `traceparent` honoured by the handler), with the semantic conventions' HTTP attributes
 * and the library's own; replays, keys in flight and reused keys say so; the store calls and the
 * user's `create` nest under the request's span.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEventsClient, EventsApiError, type EventsClientRetry } from "../../src/client/index.js";
import { createEventDocument } from "../../src/jsonapi/index.js";
import {
  type CreateEventRequest,
  createEventsHandler,
  createNodeListener,
  type EventsHandler,
} from "../../src/server/index.js";
import { createHeaders, documentFor } from "../server/support.js";
import { type InMemorySdk, named, parentOf, startInMemorySdk } from "./sdk.js";

const TOKEN = "Bearer test-token";
let sdk: InMemorySdk;
let server: Server;
let handler: EventsHandler;
let port: number;
/** What the next creates do: `fail` throws once, `block` waits for `release`. */
let behaviour: { fail: number; block?: Promise<void> } = { fail: 0 };
const seenTraceparents: (string | null)[] = [];

beforeAll(async () => {
  sdk = startInMemorySdk();
  const appTracer = sdk.tracerProvider.getTracer("app");
  let sequence = 0;
  handler = createEventsHandler({
    authorize: (request) => {
      seenTraceparents.push(request.headers.get("traceparent"));
      return request.headers.get("authorization") === TOKEN ? "tenant-a" : null;
    },
    create: async (_request: CreateEventRequest) => {
      // The user's own span: it must be a child of the request's span.
      const span = appTracer.startSpan("app.save");
      span.end();
      if (behaviour.fail > 0) {
        behaviour.fail--;
        throw new Error("database down");
      }
      await behaviour.block;
      return { id: `01ARZ3NDEKTSV4RRFFQ69G5F${String(++sequence).padStart(2, "0")}` };
    },
    telemetry: sdk.telemetry,
  });
  server = createServer(createNodeListener(handler));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await handler.close();
  await sdk.shutdown();
});

beforeEach(() => {
  sdk.exporter.reset();
  behaviour = { fail: 0 };
  seenTraceparents.length = 0;
});

function client(onRetry?: (retry: EventsClientRetry) => void) {
  return createEventsClient({
    // The query is the caller's (a tenant, a token): it must not reach url.full.
    baseUrl: `http://127.0.0.1:${port}/?tenant=acme`,
    authorization: TOKEN,
    retry: { delaysMs: [20, 20], jitter: 0 },
    telemetry: sdk.telemetry,
    ...(onRetry === undefined ? {} : { onRetry }),
  });
}

const byStart = (spans: ReadableSpan[]) =>
  [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

describe("a create through the client against the handler, traced", () => {
  it("is one trace spanning both sides, with the client's traceparent honoured and the retry visible", async () => {
    behaviour.fail = 1;
    const retries: EventsClientRetry[] = [];
    const { data, replayed } = await client((retry) => retries.push(retry)).createEvent(
      { type: "s.message.text", content: { body: "Hello" } },
      { idempotencyKey: "order-42" },
    );
    expect(data.id).toMatch(/^01ARZ3/);
    expect(replayed).toBe(false);

    const spans = sdk.spans();
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    const [create] = named(spans, "messaging_events.create_event");
    expect(create).toBeDefined();
    expect(create!.kind).toBe(SpanKind.INTERNAL);
    expect(create!.attributes).toMatchObject({
      "messaging_events.event.type": "s.message.text",
      "messaging_events.idempotency.outcome": "created",
      "messaging_events.attempt.count": 2,
    });
    const [retryEvent] = create!.events;
    expect(retryEvent?.name).toBe("messaging_events.retry");
    expect(retryEvent?.attributes).toEqual({
      "messaging_events.attempt.number": 1,
      "messaging_events.retry.delay_ms": 20,
      "http.response.status_code": 500,
    });
    expect(retries).toEqual([
      { attempt: 1, delayMs: 20, status: 500, errorType: undefined, retryAfterMs: undefined },
    ]);

    const attempts = byStart(spans.filter((span) => span.kind === SpanKind.CLIENT));
    expect(attempts.map((span) => span.name)).toEqual(["POST", "POST"]);
    for (const attempt of attempts) expect(parentOf(attempt)).toBe(create!.spanContext().spanId);
    expect(attempts[0]!.attributes).toEqual({
      "http.request.method": "POST",
      "url.full": `http://127.0.0.1:${port}/events`,
      "server.address": "127.0.0.1",
      "server.port": port,
      "messaging_events.event.type": "s.message.text",
      "messaging_events.attempt.number": 1,
      "http.response.status_code": 500,
      "error.type": "500",
    });
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]!.attributes).toMatchObject({
      "messaging_events.attempt.number": 2,
      "http.request.resend_count": 1,
      "http.response.status_code": 201,
    });
    expect(attempts[1]!.attributes["error.type"]).toBeUndefined();

    // The handler continued each attempt's trace: its server span is the attempt's child.
    const requests = byStart(named(spans, "POST /events"));
    expect(requests).toHaveLength(2);
    expect(
      seenTraceparents.every((value) => value !== null && /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(value)),
    ).toBe(true);
    requests.forEach((request, index) => {
      expect(request.kind).toBe(SpanKind.SERVER);
      expect(parentOf(request)).toBe(attempts[index]!.spanContext().spanId);
    });
    expect(requests[0]!.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/events",
      "url.path": "/events",
      "url.scheme": "http",
      "server.address": "127.0.0.1",
      "server.port": port,
      "http.response.status_code": 500,
      "error.type": "500",
      "messaging_events.event.type": "s.message.text",
      "messaging_events.idempotency_key.sent": true,
      "messaging_events.error.stage": "create",
    });
    expect(requests[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(requests[1]!.attributes).toMatchObject({
      "http.response.status_code": 201,
      "messaging_events.idempotency.outcome": "created",
    });
    expect(requests[1]!.status.code).toBe(SpanStatusCode.UNSET);

    // Store calls are the request's children, with their time: claim and release, then claim and complete.
    const storeCalls = (request: ReadableSpan) =>
      byStart(
        spans.filter(
          (span) =>
            parentOf(span) === request.spanContext().spanId &&
            span.name.startsWith("messaging_events.idempotency_store"),
        ),
      );
    expect(storeCalls(requests[0]!).map((span) => span.name)).toEqual([
      "messaging_events.idempotency_store.claim",
      "messaging_events.idempotency_store.release",
    ]);
    expect(storeCalls(requests[1]!).map((span) => span.name)).toEqual([
      "messaging_events.idempotency_store.claim",
      "messaging_events.idempotency_store.complete",
    ]);
    // The user's create ran within the request's span.
    const saves = named(spans, "app.save");
    expect(saves.map(parentOf)).toEqual(requests.map((request) => request.spanContext().spanId));
  });

  it("says replayed on both sides when the key was already completed", async () => {
    await client().createEvent({ type: "s.room.close", content: {} }, { idempotencyKey: "replay-1" });
    sdk.exporter.reset();
    const { replayed } = await client().createEvent(
      { type: "s.room.close", content: {} },
      { idempotencyKey: "replay-1" },
    );
    expect(replayed).toBe(true);
    const [create] = named(sdk.spans(), "messaging_events.create_event");
    expect(create!.attributes["messaging_events.idempotency.outcome"]).toBe("replayed");
    const [request] = named(sdk.spans(), "POST /events");
    expect(request!.attributes).toMatchObject({
      "messaging_events.idempotency.outcome": "replayed",
      "http.response.status_code": 201,
    });
    expect(named(sdk.spans(), "messaging_events.idempotency_store.claim")).toHaveLength(1);
    expect(named(sdk.spans(), "messaging_events.idempotency_store.complete")).toHaveLength(0);
  });

  it("says reused for a key sent with another document, and the client's span fails with its code", async () => {
    await client().createEvent({ type: "s.room.close", content: {} }, { idempotencyKey: "reuse-1" });
    sdk.exporter.reset();
    await expect(
      client().createEvent(
        { type: "s.message.text", content: { body: "other" } },
        { idempotencyKey: "reuse-1" },
      ),
    ).rejects.toBeInstanceOf(EventsApiError);
    const [request] = named(sdk.spans(), "POST /events");
    expect(request!.attributes).toMatchObject({
      "messaging_events.idempotency.outcome": "reused",
      "http.response.status_code": 422,
    });
    // A 4xx is the client's doing: not a failure of the server's span.
    expect(request!.status.code).toBe(SpanStatusCode.UNSET);
    const [create] = named(sdk.spans(), "messaging_events.create_event");
    expect(create!.attributes["error.type"]).toBe("ERR_EVENTS_API");
    expect(create!.status.code).toBe(SpanStatusCode.ERROR);
    const [attempt] = named(sdk.spans(), "POST");
    expect(attempt!.attributes["error.type"]).toBe("422");
  });

  it("says in-flight for a key another request holds", async () => {
    let release!: () => void;
    behaviour.block = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = client().createEvent({ type: "s.room.close", content: {} }, { idempotencyKey: "busy-1" });
    // Wait until the first request holds the key.
    for (
      let waited = 0;
      named(sdk.spans(), "messaging_events.idempotency_store.claim").length === 0;
      waited++
    ) {
      if (waited > 200) throw new Error("the first request never claimed its key");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "POST",
      headers: createHeaders("busy-1"),
      body: JSON.stringify(
        createEventDocument({ type: "s.room.close", content: {}, idempotencyKey: "busy-1" }),
      ),
    });
    expect(second.status).toBe(409);
    release();
    await first;
    const inFlight = named(sdk.spans(), "POST /events").filter(
      (span) => span.attributes["messaging_events.idempotency.outcome"] === "in-flight",
    );
    expect(inFlight).toHaveLength(1);
    expect(inFlight[0]!.attributes["http.response.status_code"]).toBe(409);
    // No traceparent: a new trace, started by the handler.
    expect(parentOf(inFlight[0]!)).toBeUndefined();
  });

  it("is an internal span under a framework's server span, when one is active", async () => {
    const framework = sdk.tracerProvider.getTracer("framework").startSpan("framework request");
    const response = await context.with(trace.setSpan(context.active(), framework), () =>
      handler(
        new Request(`http://127.0.0.1:${port}/events`, {
          method: "POST",
          headers: createHeaders("framework-1"),
          body: JSON.stringify(documentFor("hi", "framework-1")),
        }),
      ),
    );
    framework.end();
    expect(response.status).toBe(201);
    const [request] = named(sdk.spans(), "POST /events");
    expect(request!.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(request!)).toBe(framework.spanContext().spanId);
  });

  it("records a request the handler does not serve under its method alone", async () => {
    const response = await handler(new Request(`http://127.0.0.1:${port}/elsewhere?q=1`, { method: "GET" }));
    expect(response.status).toBe(404);
    const [request] = named(sdk.spans(), "GET");
    expect(request!.attributes).toEqual({
      "http.request.method": "GET",
      "url.path": "/elsewhere",
      "url.scheme": "http",
      "server.address": "127.0.0.1",
      "server.port": port,
      "http.response.status_code": 404,
    });
  });

  it("sends no traceparent without telemetry", async () => {
    const plain = createEventsClient({ baseUrl: `http://127.0.0.1:${port}`, authorization: TOKEN });
    await plain.createEvent({ type: "s.room.close", content: {} });
    expect(seenTraceparents).toEqual([null]);
  });
});
