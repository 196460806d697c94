/**
 * A created event says whether it was replayed: the library's own handler, on a real socket,
 * answers a completed key with the stored response and `Idempotent-Replayed: true`, and the client
 * resolves to `{ data, replayed }`.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { type CreatedEvent, createEventsClient, type EventsClientOptions } from "../../src/client/index.js";
import { createEventsHandler, createNodeListener, type EventsHandler } from "../../src/server/index.js";
import { useFakeService } from "../support/fakeService.js";

const TOKEN = "Bearer replay-test-token";

let server: Server | undefined;
let handler: EventsHandler | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await handler?.close();
  server = undefined;
  handler = undefined;
});

/** The library's handler on loopback, creating events with ids evt-1, evt-2…; `creates` counts the calls. */
async function serve(options: Partial<EventsClientOptions> = {}) {
  const state = { creates: 0 };
  handler = createEventsHandler({
    authorize: (request) => (request.headers.get("authorization") === TOKEN ? "tenant" : null),
    create: () => ({ id: `evt-${++state.creates}` }),
  });
  server = createServer(createNodeListener(handler));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const client = createEventsClient({
    baseUrl: `http://127.0.0.1:${port}`,
    authorization: TOKEN,
    retry: { delaysMs: [1, 2], maxRetryAfterMs: 50 },
    ...options,
  });
  return { client, state };
}

const message = { type: "s.message.text" as const, content: { body: "Hello" } };

describe("replayed, against createEventsHandler", () => {
  it("is false for a new event and true when the same key and document come again", async () => {
    const { client, state } = await serve();
    const first = await client.createEvent(message, { idempotencyKey: "replay-1" });
    expect(first.replayed).toBe(false);
    expect(first.data.id).toBe("evt-1");
    const again = await client.createEvent(message, { idempotencyKey: "replay-1" });
    expect(again.replayed).toBe(true);
    expect(again.data).toEqual(first.data);
    expect(state.creates).toBe(1);
    const other = await client.createEvent(message, { idempotencyKey: "replay-2" });
    expect(other).toMatchObject({ replayed: false, data: { id: "evt-2" } });
    expectTypeOf(again.data).toEqualTypeOf<CreatedEvent<"s.message.text">>();
    expectTypeOf(again.replayed).toEqualTypeOf<boolean>();
  });

  it("is true when this call's own first attempt created the event and its answer was lost", async () => {
    let calls = 0;
    const { client, state } = await serve({
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        // The service created the event, but the answer never arrives.
        if (++calls === 1) {
          await response.body?.cancel();
          throw new TypeError("fetch failed");
        }
        return response;
      },
    });
    const result = await client.createEvent(message);
    expect(calls).toBe(2);
    expect(result).toMatchObject({ replayed: true, data: { id: "evt-1" } });
    expect(state.creates).toBe(1);
  });
});

describe("replayed, as the header says", () => {
  const fake = useFakeService();

  it.each([
    ["true", true],
    ["True", true],
    [" true ", true],
    ["false", false],
    ["1", false],
    ["yes", false],
    [undefined, false],
  ])("Idempotent-Replayed: %j is %j", async (header, replayed) => {
    fake().script.push({
      kind: "handler",
      handle: (request, res) => {
        const sent = (JSON.parse(request.body) as { data: Record<string, unknown> }).data;
        res.writeHead(header === undefined ? 201 : 200, {
          "content-type": "application/vnd.api+json",
          ...(header === undefined ? {} : { "idempotent-replayed": header }),
        });
        res.end(JSON.stringify({ data: { ...sent, id: "01JD8X5QK3M2" } }));
      },
    });
    const client = createEventsClient({ baseUrl: fake().url, authorization: TOKEN });
    await expect(client.createEvent(message)).resolves.toMatchObject({
      replayed,
      data: { id: "01JD8X5QK3M2" },
    });
  });
});
