/**
 * The library's own client against the handler on a real socket: each side's retries and the
 * other's idempotency converge on exactly one event.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createEventsClient, EventsApiError } from "../../src/client/index.js";
import { createEventDocument } from "../../src/jsonapi/index.js";
import { fingerprintDocument } from "../../src/server/fingerprintDocument.js";
import {
  type CreateEventRequest,
  createEventsHandler,
  createMemoryIdempotencyStore,
  createNodeListener,
  type EventsHandler,
  type EventsHandlerOptions,
  type IdempotencyStore,
} from "../../src/server/index.js";
import { HANDLER_DEFAULTS } from "../../src/server/normalizeHandlerOptions.js";
import { authorize, TOKEN } from "./support.js";

let server: Server | undefined;
let handler: EventsHandler | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await handler?.close();
  server = undefined;
  handler = undefined;
});

async function serve(options: Omit<EventsHandlerOptions, "authorize">) {
  handler = createEventsHandler({ authorize, ...options });
  server = createServer(createNodeListener(handler));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return createEventsClient({
    baseUrl: `http://127.0.0.1:${port}`,
    authorization: TOKEN,
    retry: { delaysMs: [10, 20, 40, 80, 160], maxRetryAfterMs: 2_000 },
    timeoutMs: 150,
  });
}

const message = { type: "s.message.text" as const, content: { body: "Hello 👋" } };

describe("createEventsClient against createEventsHandler", () => {
  it("creates an event and returns the typed resource, echoing the key", async () => {
    const calls: CreateEventRequest[] = [];
    const client = await serve({
      create: (request) => {
        calls.push(request);
        return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
      },
    });
    const { data: event } = await client.createEvent(message, { idempotencyKey: "e2e-1" });
    expect(event.id).toBe("01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(event.attributes.content.body).toBe("Hello 👋");
    expect(event.meta?.["idempotency-key"]).toBe("e2e-1");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.event).toEqual(message);
  });

  it("retries a 500 from a failed create with the same key, and one event exists", async () => {
    const created: string[] = [];
    let attempts = 0;
    const client = await serve({
      create: ({ idempotencyKey }) => {
        if (attempts++ === 0) throw new Error("transient");
        created.push(String(idempotencyKey));
        return { id: `e${attempts}` };
      },
    });
    const { data: event } = await client.createEvent(message);
    expect(attempts).toBe(2);
    expect(created).toEqual([event.meta?.["idempotency-key"]]);
  });

  it("retries a 503 while the store is down", async () => {
    const memory = createMemoryIdempotencyStore();
    let failures = 2;
    const store: IdempotencyStore = {
      ...memory,
      claim: (claim) => (failures-- > 0 ? Promise.reject(new Error("down")) : memory.claim(claim)),
    };
    let creates = 0;
    const client = await serve({ store, create: () => ({ id: `e${++creates}` }) });
    await client.createEvent(message);
    expect(creates).toBe(1);
    await memory.close();
  });

  it("times out on a slow create, retries through 409 in flight, and gets the one event replayed", async () => {
    let creates = 0;
    const client = await serve({
      // A 409 asks for a third of the lease (1 s here): within the client's maxRetryAfterMs of 2 s.
      leaseMs: 3_000,
      create: async () => {
        creates++;
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" };
      },
    });
    const { data: event } = await client.createEvent(message);
    expect(event.id).toBe("01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(creates).toBe(1);
  });

  it("reports a key reused with another document as the handler's 422", async () => {
    const client = await serve({ create: () => ({ id: "e1" }) });
    await client.createEvent(message, { idempotencyKey: "e2e-reuse" });
    const error = await client
      .createEvent({ ...message, content: { body: "other" } }, { idempotencyKey: "e2e-reuse" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventsApiError);
    expect((error as EventsApiError).status).toBe(422);
    expect(JSON.stringify(error)).not.toContain("Hello");
  });
});

describe("a key whose holder died, with the client's and the handler's defaults", () => {
  it("is taken over after the lease: the client's default retries, told Retry-After by each 409, get through", async () => {
    const store = createMemoryIdempotencyStore();
    const event = { type: "s.room.close" as const, content: {} };
    // A process that claimed the key and died: its lease is never renewed, nothing completes it.
    const document = createEventDocument({ ...event, idempotencyKey: "orphan-1" });
    const hashed = fingerprintDocument(document);
    const claim = await store.claim({
      scope: "tenant-a",
      key: "orphan-1",
      token: "the-dead-process",
      fingerprint: typeof hashed === "string" ? hashed : await hashed,
      leaseMs: HANDLER_DEFAULTS.leaseMs,
    });
    expect(claim.status).toBe("claimed");
    handler = createEventsHandler({ authorize, store, create: () => ({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }) });
    server = createServer(createNodeListener(handler));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    // Everything at its default but the address and the credential.
    const client = createEventsClient({ baseUrl: `http://127.0.0.1:${port}`, authorization: TOKEN });
    const started = Date.now();
    const { data, replayed } = await client.createEvent(event, { idempotencyKey: "orphan-1" });
    expect(data.id).toBe("01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(replayed).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HANDLER_DEFAULTS.leaseMs - 1_000);
    await store.close();
  }, 30_000);
});
