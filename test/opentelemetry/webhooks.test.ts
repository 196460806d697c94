/**
 * The webhook receiver and verifier with the real OpenTelemetry SDK: one span per webhook with its
 * outcome code, the status answered, the type and the delivery id once verified; a refusal (401) is
 * not a failure of the receiver, a handler that throws (500) is; the handler runs within the span.
 */
import { SpanStatusCode } from "@opentelemetry/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createWebhookReceiver,
  createWebhookRequest,
  createWebhookVerifier,
  signWebhook,
  WEBHOOK_ID_HEADER,
} from "../../src/webhooks/index.js";
import { type InMemorySdk, named, parentOf, startInMemorySdk } from "./sdk.js";

const SECRET = "whsec_receiver_telemetry";
const payload = { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-1" } as const;
let sdk: InMemorySdk;

beforeAll(() => {
  sdk = startInMemorySdk();
});
afterAll(async () => {
  await sdk.shutdown();
});
beforeEach(() => {
  sdk.exporter.reset();
});

async function signedRequest(deliveryId: string, secret = SECRET): Promise<Request> {
  const request = await createWebhookRequest("https://receiver.example/hooks", { payload, secret });
  request.headers.set(WEBHOOK_ID_HEADER, deliveryId);
  return request;
}

describe("the receiver, traced", () => {
  it("records processed, refused and failed webhooks with their outcome", async () => {
    const appTracer = sdk.tracerProvider.getTracer("app");
    let fail = false;
    const receiver = createWebhookReceiver({
      secret: SECRET,
      on: {
        "s.message.text": () => {
          appTracer.startSpan("app.handle").end();
          if (fail) throw new Error("database down");
        },
      },
      telemetry: sdk.telemetry,
    });
    expect((await receiver.fetch(await signedRequest("delivery-1"))).status).toBe(204);
    expect((await receiver.fetch(await signedRequest("delivery-2", "whsec_other"))).status).toBe(401);
    fail = true;
    expect((await receiver.fetch(await signedRequest("delivery-3"))).status).toBe(500);
    await receiver.close();

    const spans = named(sdk.spans(), "messaging_events.webhook.receive");
    expect(spans.map((span) => span.attributes)).toEqual([
      {
        "messaging_events.webhook.outcome": "processed",
        "http.response.status_code": 204,
        "messaging_events.event.type": "s.message.text",
        "messaging_events.delivery.id": "delivery-1",
      },
      {
        "messaging_events.webhook.outcome": "ERR_WEBHOOK_SIGNATURE_MISMATCH",
        "http.response.status_code": 401,
      },
      {
        "messaging_events.webhook.outcome": "ERR_WEBHOOK_HANDLER_FAILED",
        "http.response.status_code": 500,
        "messaging_events.event.type": "s.message.text",
        "messaging_events.delivery.id": "delivery-3",
        "error.type": "ERR_WEBHOOK_HANDLER_FAILED",
      },
    ]);
    expect(spans.map((span) => span.status.code)).toEqual([
      SpanStatusCode.UNSET,
      SpanStatusCode.UNSET,
      SpanStatusCode.ERROR,
    ]);
    // The handler ran within the webhook's span.
    expect(named(sdk.spans(), "app.handle").map(parentOf)).toEqual([
      spans[0]!.spanContext().spanId,
      spans[2]!.spanContext().spanId,
    ]);
  });

  it("records a verifier's verifications", async () => {
    const verifier = createWebhookVerifier({ secret: SECRET, telemetry: sdk.telemetry });
    const signed = await signWebhook({ payload, secret: SECRET });
    await verifier.verify(signed);
    await expect(verifier.verify({ ...signed, body: `${signed.body} ` })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_SIGNATURE_MISMATCH",
    });
    expect((await verifier.safeVerifyRequest(await signedRequest("d-9"))).success).toBe(true);
    const spans = named(sdk.spans(), "messaging_events.webhook.verify");
    expect(spans.map((span) => span.attributes)).toEqual([
      { "messaging_events.webhook.outcome": "verified", "messaging_events.event.type": "s.message.text" },
      {
        "messaging_events.webhook.outcome": "ERR_WEBHOOK_SIGNATURE_MISMATCH",
        "error.type": "ERR_WEBHOOK_SIGNATURE_MISMATCH",
      },
      { "messaging_events.webhook.outcome": "verified", "messaging_events.event.type": "s.message.text" },
    ]);
    expect(spans[1]!.status.code).toBe(SpanStatusCode.ERROR);
  });
});
