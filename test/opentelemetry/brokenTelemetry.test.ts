/**
 * Instrumentation never changes an answer or a delivery: with an instrumentation whose every method
 * throws (or hands out handles whose every method throws), the handler answers as without one, the
 * dispatcher delivers, the receiver and the verifier answer, and the client creates.
 */
import { describe, expect, it } from "vitest";
import { createEventsClient } from "../../src/client/index.js";
import { createMemoryDeliveryQueue, createWebhookDispatcher } from "../../src/dispatch/index.js";
import { createOpenTelemetry, type OpenTelemetryInstrumentation } from "../../src/opentelemetry/index.js";
import { createEventsHandler } from "../../src/server/index.js";
import {
  createWebhookReceiver,
  createWebhookRequest,
  createWebhookVerifier,
} from "../../src/webhooks/index.js";
import { createHeaders, documentFor } from "../server/support.js";

const fail = () => {
  throw new Error("exporter down");
};
/** Every method throws. */
const throwing = new Proxy({}, { get: () => fail }) as OpenTelemetryInstrumentation;
/** Every method hands out a handle whose every method (and property) throws. */
const handle = new Proxy({}, { get: fail });
const throwingHandles = new Proxy({}, { get: () => () => handle }) as OpenTelemetryInstrumentation;

describe.each([
  ["every method throws", throwing],
  ["every handle throws", throwingHandles],
])("an instrumentation where %s", (_name, telemetry) => {
  it("leaves the handler's answers, the client's creates and the receiver's answers as they are", async () => {
    let failures = 1;
    const handler = createEventsHandler({
      authorize: () => "tenant",
      create: () => {
        if (failures-- > 0) throw new Error("database down");
        return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
      },
      telemetry,
    });
    const send = (key: string) =>
      handler(
        new Request("http://127.0.0.1/events", {
          method: "POST",
          headers: createHeaders(key),
          body: JSON.stringify(documentFor("hi", key)),
        }),
      );
    expect((await send("k-1")).status).toBe(500);
    expect((await send("k-1")).status).toBe(201);
    const replay = await send("k-1");
    expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    const client = createEventsClient({
      baseUrl: "http://127.0.0.1",
      authorization: "Bearer x",
      fetch: (input, init) => handler(new Request(input, init)),
      retry: { delaysMs: [5] },
      telemetry,
    });
    expect((await client.createEvent({ type: "s.room.close", content: {} })).data.id).toBe(
      "01ARZ3NDEKTSV4RRFFQ69G5FAV",
    );
    await handler.close();

    const payload = { type: "s.room.close", version: 2, content: {} } as const;
    const receiver = createWebhookReceiver({ secret: "whsec_x", onAny: () => undefined, telemetry });
    const request = () =>
      createWebhookRequest("https://receiver.example/hooks", { payload, secret: "whsec_x" });
    expect((await receiver.fetch(await request())).status).toBe(204);
    await receiver.close();
    const verifier = createWebhookVerifier({ secret: "whsec_x", telemetry });
    expect((await verifier.verifyRequest(await request())).type).toBe("s.room.close");
  });

  it("leaves deliveries as they are", async () => {
    const sent: string[] = [];
    const queue = createMemoryDeliveryQueue();
    const dispatcher = createWebhookDispatcher({
      endpoints: [{ id: "acme", url: "https://acme.example/hooks", secret: "whsec_x" }],
      fetch: async (input) => {
        sent.push(String(input));
        return new Response(null, { status: sent.length === 1 ? 500 : 204 });
      },
      queue,
      retry: { delaysMs: [5], jitter: 0 },
      telemetry,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "room-1" });
    await queue.idle();
    await dispatcher.close();
    await queue.close();
    expect(sent).toEqual(["https://acme.example/hooks", "https://acme.example/hooks"]);
  });
});

describe("the library's own instrumentation", () => {
  it("answers a request it cannot read as it does without instrumentation: 500, never a throw", async () => {
    const unreadable = new Proxy(
      {},
      {
        get() {
          throw new Error("a getter that throws");
        },
        has() {
          throw new Error("a trap that throws");
        },
      },
    ) as Request;
    const statuses: number[] = [];
    for (const telemetry of [undefined, createOpenTelemetry()]) {
      const handler = createEventsHandler({
        authorize: () => "tenant",
        create: () => ({ id: "1" }),
        telemetry,
      });
      statuses.push((await handler(unreadable)).status);
      await handler.close();
    }
    expect(statuses).toEqual([500, 500]);
  });
});
