/**
 * The trace of a webhook crosses processes with its delivery, on a real redis-server: a producing
 * process (its own OpenTelemetry SDK) dispatches through the BullMQ queue; this process delivers
 * (another SDK), failing once (500) and then delivered. Both attempt spans continue the producer's
 * dispatch span (same trace, its child, linked to it), although nothing but Redis joins the two
 * processes. And the BullMQ queue keeps a delivery's trace context through retries and death.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SpanKind } from "@opentelemetry/api";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBullMQDeliveryQueue } from "../../src/dispatch/bullmq/index.js";
import { createWebhookDispatcher } from "../../src/dispatch/index.js";
import { eventually, type Receiver, startReceiver } from "../dispatch/receiver.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import {
  bundleChild,
  type ChildReport,
  type ReportingChild,
  startReportingChild,
} from "../support/reportingChild.js";
import { type InMemorySdk, named, parentOf, startInMemorySdk } from "./sdk.js";

const SECRET = "whsec_bullmq_trace";
const outDir = fileURLToPath(new URL("../../.tmp/opentelemetry/", import.meta.url));
const script = `${outDir}tracedProducer.mjs`;

interface ProducerReport extends ChildReport {
  readonly name?: string;
  readonly traceId?: string;
  readonly spanId?: string;
  readonly parentSpanId?: string;
  readonly deliveryId?: string;
}

let redis: RedisServer;
let sdk: InMemorySdk;
let receiver: Receiver | undefined;
let producer: ReportingChild<ProducerReport> | undefined;

beforeAll(async () => {
  await bundleChild(fileURLToPath(new URL("./tracedProducer.ts", import.meta.url)), script, [
    "redis",
    "bullmq",
    "ioredis",
    "@opentelemetry/*",
  ]);
  redis = await startRedisServer();
  sdk = startInMemorySdk();
});

afterAll(async () => {
  producer?.kill();
  await receiver?.close();
  await sdk?.shutdown();
  await redis?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe("a webhook's trace through BullMQ, across two processes", () => {
  it("continues the producer's dispatch span in the delivering process, failed once and delivered", async () => {
    receiver = await startReceiver([SECRET], (_request, index) => ({ status: index === 0 ? 500 : 204 }));
    const name = `trace-${Date.now().toString(36)}`;
    producer = await startReportingChild<ProducerReport>(
      script,
      { REDIS_URL: redis.url, QUEUE_NAME: name, ENDPOINT_URL: receiver.url, SECRET },
      "the producing process",
    );

    // This process delivers.
    const connection = createClient({ url: redis.url });
    connection.on("error", () => undefined);
    await connection.connect();
    const queue = createBullMQDeliveryQueue({ connection, name, lockMs: 2_000 });
    const deliverer = createWebhookDispatcher({
      endpoints: [{ id: "acme", url: receiver.url, secret: SECRET }],
      destinations: { allow: ["127.0.0.1"] },
      queue,
      retry: { delaysMs: [50], jitter: 0 },
      telemetry: sdk.telemetry,
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${producer.port}/dispatch`, { method: "POST" });
      expect(answer.status).toBe(204);
      await eventually(
        () =>
          named(sdk.spans(), "POST").filter(
            (span) => span.attributes["messaging_events.attempt.outcome"] === "delivered",
          ).length === 1,
        20_000,
        "the delivered attempt's span",
      );
    } finally {
      await deliverer.close();
      await queue.close();
      await connection.close();
    }
    expect(await producer.stop()).toBe(0);

    const reported = producer.reports;
    const dispatch = reported.find(
      (line) => line.event === "span" && line.name === "messaging_events.dispatch",
    );
    const appSpan = reported.find((line) => line.event === "span" && line.name === "app.order-paid");
    const deliveryId = reported.find((line) => line.event === "dispatched")?.deliveryId;
    expect(dispatch?.traceId).toMatch(/^[0-9a-f]{32}$/);
    // In the producer, the dispatch continued the application's own span.
    expect(dispatch?.traceId).toBe(appSpan?.traceId);
    expect(dispatch?.parentSpanId).toBe(appSpan?.spanId);

    const attempts = named(sdk.spans(), "POST").sort(
      (a, b) =>
        Number(a.attributes["messaging_events.attempt.number"]) -
        Number(b.attributes["messaging_events.attempt.number"]),
    );
    expect(
      attempts.map((span) => [
        span.attributes["http.response.status_code"],
        span.attributes["messaging_events.attempt.outcome"],
      ]),
    ).toEqual([
      [500, "retry"],
      [204, "delivered"],
    ]);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.spanContext().traceId).toBe(dispatch!.traceId);
      expect(parentOf(attempt)).toBe(dispatch!.spanId);
      expect(attempt.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([
        [dispatch!.traceId, dispatch!.spanId],
      ]);
      expect(attempt.attributes["messaging_events.delivery.id"]).toBe(deliveryId);
    }
    expect(receiver.requests.map((request) => request.headers["service-webhook-id"])).toEqual([
      deliveryId,
      deliveryId,
    ]);
  });

  it("the BullMQ queue keeps a delivery's trace context through a retry and death, and lists it", async () => {
    const connection = createClient({ url: redis.url });
    connection.on("error", () => undefined);
    await connection.connect();
    const queue = createBullMQDeliveryQueue({
      connection,
      name: `keep-${Date.now().toString(36)}`,
      lockMs: 2_000,
    });
    const trace = {
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      tracestate: "vendor=value",
    };
    try {
      await queue.add([
        {
          id: "traced-1",
          eventId: "e-1",
          endpointId: "acme",
          type: "s.room.close",
          body: "{}",
          createdAt: 1,
          trace,
        },
      ]);
      const first = (await queue.take({ signal: AbortSignal.timeout(5_000) }))!;
      expect(first.delivery.trace).toEqual(trace);
      await queue.retry(first, Date.now() + 10, "answered 500");
      const second = (await queue.take({ signal: AbortSignal.timeout(5_000) }))!;
      expect(second.delivery.trace).toEqual(trace);
      await queue.dead(second, "answered 500", { status: 500, body: "down" });
      const [dead] = await queue.listDead();
      expect(dead).toMatchObject({ id: "traced-1", trace, lastResponse: { status: 500, body: "down" } });
    } finally {
      await queue.close();
      await connection.close();
    }
  });
});
