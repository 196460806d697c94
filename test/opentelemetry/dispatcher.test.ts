/**
 * The dispatcher with the real OpenTelemetry SDK, delivering to a receiver on 127.0.0.1: a webhook
 * that fails once (500) and is then delivered gives two attempt spans with their statuses, both in
 * the dispatch's trace and linked to it; the metrics count attempts by outcome and status class,
 * time them, count dead deliveries and disabled endpoints, and read the memory queue's depth.
 */
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { DataPoint, Histogram } from "@opentelemetry/sdk-metrics";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMemoryDeliveryQueue, createWebhookDispatcher } from "../../src/dispatch/index.js";
import { type Receiver, startReceiver } from "../dispatch/receiver.js";
import { type InMemorySdk, named, parentOf, startInMemorySdk } from "./sdk.js";

const SECRET = "whsec_dispatch_telemetry";
let sdk: InMemorySdk;
const receivers: Receiver[] = [];

beforeAll(() => {
  sdk = startInMemorySdk();
});
afterAll(async () => {
  await sdk.shutdown();
});
beforeEach(() => {
  sdk.exporter.reset();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** The points of a metric whose attributes include `attributes`. */
function points(
  metrics: Map<string, DataPoint<number | Histogram>[]>,
  name: string,
  attributes: Record<string, unknown> = {},
): DataPoint<number | Histogram>[] {
  return (metrics.get(name) ?? []).filter((point) =>
    Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );
}

describe("the dispatcher, traced and measured", () => {
  it("a webhook failed once (500) and delivered: two attempt spans with their statuses, linked to the dispatch", async () => {
    const receiver = await startReceiver([SECRET], (_request, index) => ({
      status: index === 0 ? 500 : 204,
    }));
    receivers.push(receiver);
    const queue = createMemoryDeliveryQueue();
    const dispatcher = createWebhookDispatcher({
      // The customer's URL carries a token in its query, and its path may be one: neither may reach url.full.
      endpoints: [{ id: "acme", url: `${receiver.url}?token=abc`, secret: SECRET }],
      destinations: { allow: ["127.0.0.1"] },
      queue,
      retry: { delaysMs: [20], jitter: 0 },
      telemetry: sdk.telemetry,
    });
    const { deliveries } = await dispatcher.dispatch({
      event: { type: "s.room.close", content: {} },
      roomId: "room-42",
    });
    await queue.idle();
    const metrics = await sdk.metrics();
    await dispatcher.close();
    await queue.close();

    const spans = sdk.spans();
    const [dispatch] = named(spans, "messaging_events.dispatch");
    expect(dispatch!.kind).toBe(SpanKind.PRODUCER);
    expect(dispatch!.attributes).toEqual({
      "messaging_events.event.type": "s.room.close",
      "messaging_events.delivery.count": 1,
    });
    const attempts = named(spans, "POST").sort(
      (a, b) =>
        Number(a.attributes["messaging_events.attempt.number"]) -
        Number(b.attributes["messaging_events.attempt.number"]),
    );
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.spanContext().traceId).toBe(dispatch!.spanContext().traceId);
      expect(parentOf(attempt)).toBe(dispatch!.spanContext().spanId);
      expect(attempt.links.map((link) => link.context.spanId)).toEqual([dispatch!.spanContext().spanId]);
    }
    const { port } = new URL(receiver.url);
    expect(attempts[0]!.attributes).toEqual({
      "http.request.method": "POST",
      "url.full": `${new URL(receiver.url).origin}/REDACTED`,
      "server.address": "127.0.0.1",
      "server.port": Number(port),
      "messaging_events.delivery.id": deliveries[0]!.id,
      "messaging_events.event.id": expect.any(String),
      "messaging_events.endpoint.id": "acme",
      "messaging_events.event.type": "s.room.close",
      "messaging_events.attempt.number": 1,
      "messaging_events.attempt.outcome": "retry",
      "http.response.status_code": 500,
      "error.type": "500",
    });
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]!.attributes).toMatchObject({
      "messaging_events.attempt.number": 2,
      "http.request.resend_count": 1,
      "messaging_events.attempt.outcome": "delivered",
      "http.response.status_code": 204,
    });
    expect(attempts[1]!.attributes["error.type"]).toBeUndefined();
    expect(attempts[1]!.status.code).toBe(SpanStatusCode.UNSET);
    // The trace context is the operator's: it is not sent to the customer's endpoint.
    expect(receiver.requests.map((request) => request.headers.traceparent)).toEqual([undefined, undefined]);

    const retried = points(metrics, "messaging_events.webhook.attempts", {
      "messaging_events.attempt.outcome": "retry",
      "messaging_events.http.status_class": "5xx",
      "error.type": "500",
    });
    const delivered = points(metrics, "messaging_events.webhook.attempts", {
      "messaging_events.attempt.outcome": "delivered",
      "messaging_events.http.status_class": "2xx",
    });
    expect(retried.map((point) => point.value)).toEqual([1]);
    expect(delivered.map((point) => point.value)).toEqual([1]);
    const durations = points(metrics, "messaging_events.webhook.attempt.duration");
    expect(durations.reduce((sum, point) => sum + (point.value as Histogram).count, 0)).toBe(2);
    for (const point of durations) expect((point.value as Histogram).sum).toBeLessThan(5);
    // The memory queue tells its depth: nothing left once idle.
    expect(
      Object.fromEntries(
        points(metrics, "messaging_events.webhook.queue.depth").map((point) => [
          point.attributes["messaging_events.queue.state"],
          point.value,
        ]),
      ),
    ).toEqual({ waiting: 0, leased: 0, dead: 0 });
  });

  it("counts a dead delivery and a disabled endpoint (410), and a retry that ran out", async () => {
    const gone = await startReceiver([SECRET], () => ({ status: 410 }));
    const failing = await startReceiver([SECRET], () => ({ status: 503 }));
    receivers.push(gone, failing);
    const queue = createMemoryDeliveryQueue();
    const before = await sdk.metrics();
    const deadBefore = points(before, "messaging_events.webhook.dead_deliveries").reduce(
      (sum, point) => sum + Number(point.value),
      0,
    );
    const dispatcher = createWebhookDispatcher({
      endpoints: [
        { id: "gone", url: gone.url, secret: SECRET },
        { id: "failing", url: failing.url, secret: SECRET },
      ],
      destinations: { allow: ["127.0.0.1"] },
      queue,
      retry: { delaysMs: [10], jitter: 0 },
      telemetry: sdk.telemetry,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "room-7" });
    await queue.idle();
    const metrics = await sdk.metrics();
    await dispatcher.close();
    await queue.close();

    const dead = points(metrics, "messaging_events.webhook.dead_deliveries", {
      "messaging_events.event.type": "s.room.close",
    }).reduce((sum, point) => sum + Number(point.value), 0);
    expect(dead - deadBefore).toBe(2);
    expect(
      points(metrics, "messaging_events.webhook.disabled_endpoints", {
        "messaging_events.endpoint.disabled_reason": "gone",
      }).map((point) => point.value),
    ).toEqual([1]);
    const goneAttempt = named(sdk.spans(), "POST").find(
      (span) => span.attributes["messaging_events.endpoint.id"] === "gone",
    );
    expect(goneAttempt!.attributes).toMatchObject({
      "messaging_events.attempt.outcome": "dead",
      "http.response.status_code": 410,
      "error.type": "410",
    });
    const lastFailing = named(sdk.spans(), "POST").filter(
      (span) => span.attributes["messaging_events.endpoint.id"] === "failing",
    );
    expect(lastFailing.map((span) => span.attributes["messaging_events.attempt.outcome"]).sort()).toEqual([
      "dead",
      "retry",
    ]);
  });

  it("traces a refused destination (no status) and an endpoint removed before its attempt (no URL)", async () => {
    const queue = createMemoryDeliveryQueue();
    const endpoints = [
      { id: "rebinding", url: "http://hooks.customer.example/hooks", secret: SECRET },
      { id: "removed", url: "http://hooks.customer.example/other", secret: SECRET },
    ];
    // The dispatch sees both endpoints; every attempt after it, only the first.
    let calls = 0;
    const dispatcher = createWebhookDispatcher({
      endpoints: async () => (calls++ === 0 ? endpoints : endpoints.slice(0, 1)),
      // The name resolves to a private address when the attempt connects: refused.
      destinations: { resolve: async () => ["10.0.0.5"] },
      queue,
      retry: { delaysMs: [], jitter: 0 },
      telemetry: sdk.telemetry,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "room-1" });
    await queue.idle();
    await dispatcher.close();
    await queue.close();
    const attempts = named(sdk.spans(), "POST");
    const refused = attempts.find((span) => span.attributes["messaging_events.endpoint.id"] === "rebinding");
    expect(refused!.attributes).toMatchObject({
      "url.full": "http://hooks.customer.example/REDACTED",
      "messaging_events.attempt.outcome": "dead",
      "error.type": "destination_refused",
    });
    expect(refused!.attributes["http.response.status_code"]).toBeUndefined();
    const removed = attempts.find((span) => span.attributes["messaging_events.endpoint.id"] === "removed");
    expect(removed!.attributes).toMatchObject({
      "messaging_events.attempt.outcome": "dead",
      "error.type": "endpoint_removed",
    });
    expect(removed!.attributes["url.full"]).toBeUndefined();
  });

  it("fails the dispatch span with the refusal's code", async () => {
    const dispatcher = createWebhookDispatcher({
      endpoints: async () => [{ id: "local", url: "http://metadata.internal/hooks", secret: SECRET }],
      telemetry: sdk.telemetry,
    });
    await expect(
      dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "room-1" }),
    ).rejects.toMatchObject({ code: "ERR_DISPATCH_DESTINATION_REFUSED" });
    await dispatcher.close();
    const [dispatch] = named(sdk.spans(), "messaging_events.dispatch");
    expect(dispatch!.attributes).toMatchObject({
      "messaging_events.event.type": "s.room.close",
      "messaging_events.delivery.count": 0,
      "error.type": "ERR_DISPATCH_DESTINATION_REFUSED",
    });
    expect(dispatch!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("observes the queue's depth while the dispatcher is open, and stops when it closes", async () => {
    const own = startInMemorySdk();
    const queue = createMemoryDeliveryQueue();
    const dispatcher = createWebhookDispatcher({
      endpoints: [{ id: "later", url: "https://hooks.customer.example/hooks", secret: SECRET }],
      queue,
      deliver: false,
      telemetry: own.telemetry,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "room-1" });
    const depth = async () =>
      points(await own.metrics(), "messaging_events.webhook.queue.depth").find(
        (point) => point.attributes["messaging_events.queue.state"] === "waiting",
      )?.value;
    expect(await depth()).toBe(1);
    await dispatcher.close();
    await queue.add([
      { id: "d-2", eventId: "e-2", endpointId: "later", type: "s.room.close", body: "{}", createdAt: 0 },
    ]);
    // Closed: the queue now holds two, but nobody observes it any more.
    expect(await depth()).not.toBe(2);
    await queue.close();
    await own.shutdown();
  });
});
