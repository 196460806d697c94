/**
 * The producing process of the BullMQ trace suite: its own OpenTelemetry SDK, a BullMQ delivery queue
 * on REDIS_URL (QUEUE_NAME) and a dispatcher that only dispatches (`deliver: false`) to one endpoint
 * (ENDPOINT_URL, SECRET). `POST /dispatch` dispatches one webhook within a span of the application's
 * own; every span this process ends is reported as a JSON line (`{ "event": "span", … }`), then
 * `{ "event": "dispatched", "deliveryId" }`. It reports `listening` once it serves, and closes
 * everything on SIGTERM.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { context, trace } from "@opentelemetry/api";
import { createClient } from "redis";
import { createBullMQDeliveryQueue } from "../../src/dispatch/bullmq/index.js";
import { createWebhookDispatcher } from "../../src/dispatch/index.js";
import { startInMemorySdk } from "./sdk.js";

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const sdk = startInMemorySdk();
const connection = createClient({ url: process.env.REDIS_URL });
connection.on("error", () => undefined);
await connection.connect();
const queue = createBullMQDeliveryQueue({ connection, name: process.env.QUEUE_NAME });
const dispatcher = createWebhookDispatcher({
  endpoints: [{ id: "acme", url: String(process.env.ENDPOINT_URL), secret: String(process.env.SECRET) }],
  destinations: { allow: ["127.0.0.1"] },
  queue,
  deliver: false,
  telemetry: sdk.telemetry,
});
const app = sdk.tracerProvider.getTracer("producer-app");

const server = createServer((request, response) => {
  if (request.url !== "/dispatch") {
    response.writeHead(404).end();
    return;
  }
  const span = app.startSpan("app.order-paid");
  void context
    .with(trace.setSpan(context.active(), span), () =>
      dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "room-42" }),
    )
    .then(({ deliveries }) => {
      span.end();
      for (const ended of sdk.spans()) {
        report({
          event: "span",
          name: ended.name,
          traceId: ended.spanContext().traceId,
          spanId: ended.spanContext().spanId,
          parentSpanId: ended.parentSpanContext?.spanId,
        });
      }
      report({ event: "dispatched", deliveryId: deliveries[0]?.id });
      response.writeHead(204).end();
    });
});
server.listen(0, "127.0.0.1", () =>
  report({ event: "listening", port: (server.address() as AddressInfo).port }),
);

process.once("SIGTERM", async () => {
  server.close();
  await dispatcher.close();
  await queue.close();
  await connection.close();
  await sdk.shutdown();
});
