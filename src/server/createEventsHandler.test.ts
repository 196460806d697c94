/**
 * The bare Fetch handler: every status of the table, the resource it answers, and idempotency
 * (replay, in flight, reuse, scoping, failures, leases, store outages).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { statusCases } from "../../test/server/statusCases.js";
import {
  authorize,
  countingCreate,
  createHeaders,
  documentFor,
  MEDIA_TYPE,
  snapshot,
} from "../../test/server/support.js";
import { createEventDocument } from "../jsonapi/createEventDocument.js";
import { createEventsHandler } from "./createEventsHandler.js";
import { createMemoryIdempotencyStore } from "./createMemoryIdempotencyStore.js";
import type { EventsHandlerOptions } from "./EventsHandlerOptions.js";
import type { IdempotencyStore } from "./IdempotencyStore.js";

const URL_BASE = "http://127.0.0.1";

function post(key: string | undefined, document: unknown, headers: Record<string, string> = {}) {
  return new Request(`${URL_BASE}/events`, {
    method: "POST",
    headers: createHeaders(key, headers),
    body: JSON.stringify(document),
  });
}

function handlerWith(options: Partial<EventsHandlerOptions> = {}) {
  const counting = countingCreate();
  const handler = createEventsHandler({ authorize, create: counting.create, ...options });
  return { handler, calls: counting.calls };
}

async function errorsOf(response: Response) {
  const body = (await response.json()) as { errors: Record<string, unknown>[] };
  return body.errors;
}

describe("createEventsHandler: statuses", () => {
  it.each(statusCases.map((entry) => [entry.name, entry] as const))("%s", async (_name, entry) => {
    const { handler } = handlerWith({ maxBodyBytes: 1000 });
    const headers = new Headers();
    for (const [name, value] of entry.headers) headers.append(name, value);
    const method = entry.method ?? "POST";
    const response = await handler(
      new Request(`${URL_BASE}${entry.path ?? "/events"}`, {
        method,
        headers,
        ...(method === "GET" ? {} : { body: entry.body ?? "" }),
      } as RequestInit),
    );
    expect(response.status).toBe(entry.status);
    expect(response.headers.get("content-type")).toBe(MEDIA_TYPE);
    for (const [name, value] of Object.entries(entry.responseHeaders ?? {})) {
      expect(response.headers.get(name)).toBe(value);
    }
    const body = (await response.json()) as { errors?: Record<string, unknown>[] };
    if (entry.status >= 400) {
      expect(body.errors?.length).toBeGreaterThan(0);
      for (const error of body.errors ?? []) {
        expect(error.status).toBe(String(entry.status));
        expect(typeof error.code).toBe("string");
        expect(typeof error.title).toBe("string");
        expect(String(error.detail).length).toBeLessThan(1000);
      }
      if (entry.code) expect(body.errors?.map((error) => error.code)).toContain(entry.code);
      if (entry.pointer) {
        expect(
          body.errors?.map((error) => (error.source as { pointer?: string } | undefined)?.pointer),
        ).toContain(entry.pointer);
      }
    }
    await handler.close();
  });

  it("answers the created event resource, echoing the key, with Location when configured", async () => {
    const { handler, calls } = handlerWith({ location: (id) => `https://api.example.com/events/${id}` });
    const document = documentFor("hello", "order-9");
    const response = await handler(post("order-9", document));
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Record<string, unknown> };
    expect(data).toEqual({
      id: "01JD8X00000000000000000001",
      type: "events",
      attributes: (document.data as { attributes: unknown }).attributes,
      meta: { "idempotency-key": "order-9" },
    });
    expect(response.headers.get("location")).toBe(
      "https://api.example.com/events/01JD8X00000000000000000001",
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ principal: "tenant-a", idempotencyKey: "order-9" });
    expect(calls[0]!.event).toEqual({ type: "s.message.text", content: { body: "hello" } });
    await handler.close();
  });

  it("adds the attributes and relationships create returns", async () => {
    const handler = createEventsHandler({
      authorize,
      create: () => ({
        id: "e1",
        attributes: { createdAt: "2026-01-01T00:00:00Z" },
        relationships: { room: { data: { type: "rooms", id: "r1" } } },
      }),
    });
    const response = await handler(post(undefined, documentFor("hi")));
    const { data } = (await response.json()) as { data: Record<string, Record<string, unknown>> };
    expect(data.attributes!.createdAt).toBe("2026-01-01T00:00:00Z");
    expect(data.relationships).toEqual({ room: { data: { type: "rooms", id: "r1" } } });
    expect(data.meta).toBeUndefined();
    await handler.close();
  });

  it.each([
    ["an empty id", { id: "" }],
    ["a blank id", { id: "   " }],
    ["an id of 27 characters", { id: "x".repeat(27) }],
    ["no id", {}],
    ["not an object", "01JD8X"],
    ["attributes that JSON cannot carry", { id: "e1", attributes: { n: 10n } }],
    ["an id whose Location a header cannot carry", { id: "bad\nid" }],
  ])("answers an opaque 500 and frees the key when create returns %s", async (_name, result) => {
    let attempt = 0;
    const handler = createEventsHandler({
      authorize,
      create: () => (attempt++ === 0 ? (result as never) : { id: "e2" }),
      location: (id) => `/events/${id}`,
    });
    const first = await handler(post("k-bad", documentFor("x", "k-bad")));
    expect(first.status).toBe(500);
    expect((await errorsOf(first))[0]).toMatchObject({ code: "ERR_INTERNAL" });
    const retry = await handler(post("k-bad", documentFor("x", "k-bad")));
    expect(retry.status).toBe(201);
    await handler.close();
  });

  it("never shows what create threw, and frees the key", async () => {
    let attempt = 0;
    const handler = createEventsHandler({
      authorize,
      create: () => {
        if (attempt++ === 0) throw new Error("database password is hunter2");
        return { id: "e2" };
      },
    });
    const first = await handler(post("k-throw", documentFor("x", "k-throw")));
    expect(first.status).toBe(500);
    expect(await first.text()).not.toContain("hunter2");
    expect((await handler(post("k-throw", documentFor("x", "k-throw")))).status).toBe(201);
    await handler.close();
  });

  it("bounds every echoed value", async () => {
    const { handler } = handlerWith();
    const response = await handler(new Request(`${URL_BASE}/${"\u202e".repeat(5000)}`, { method: "POST" }));
    expect(response.status).toBe(404);
    const [error] = await errorsOf(response);
    expect(String(error!.detail).length).toBeLessThan(300);
    expect(String(error!.detail)).not.toContain("\u202e");
    await handler.close();
  });

  it("answers 413 from Content-Length without reading the body", async () => {
    const { handler } = handlerWith({ maxBodyBytes: 100 });
    let pulled = 0;
    const never = new ReadableStream<Uint8Array>({
      pull() {
        pulled++;
        return new Promise(() => undefined);
      },
    });
    const response = await handler(
      new Request(`${URL_BASE}/events`, {
        method: "POST",
        headers: createHeaders(undefined, { "content-length": "1000000" }),
        body: never,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
    await handler.close();
  });

  it("stops reading a stream at the limit", async () => {
    const { handler } = handlerWith({ maxBodyBytes: 1000 });
    let chunks = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks++;
        controller.enqueue(new Uint8Array(400).fill(0x20));
      },
    });
    const response = await handler(
      new Request(`${URL_BASE}/events`, {
        method: "POST",
        headers: createHeaders(),
        body: endless,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(chunks).toBeLessThan(10);
    await handler.close();
  });
});

describe("createEventsHandler: attribute names and hostile input", () => {
  it("reads and answers the event under the attribute names it is given", async () => {
    const attributeNames = { eventType: "kind", content: "payload" };
    const { handler, calls } = handlerWith({ attributeNames });
    const document = createEventDocument(
      { type: "s.room.pin", content: { value: true } },
      { attributeNames },
    );
    const response = await handler(post(undefined, document));
    expect(response.status).toBe(201);
    expect(calls[0]!.event).toEqual({ type: "s.room.pin", content: { value: true } });
    const { data } = (await response.json()) as { data: { attributes: unknown } };
    expect(data.attributes).toEqual({ kind: "s.room.pin", payload: { value: true } });
    const defaults = await handler(post(undefined, documentFor("x")));
    expect(defaults.status).toBe(422);
    await handler.close();
  });

  it("answers every request with a JSON:API document and a status it documents, whatever the body and headers", async () => {
    const { handler } = handlerWith({ maxBodyBytes: 2_000 });
    const statuses = new Set([201, 400, 401, 406, 409, 413, 415, 422]);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((value) => JSON.stringify({ data: value })),
        ),
        fc.dictionary(
          fc.constantFrom("content-type", "accept", "service-idempotency-key", "authorization", "x-other"),
          fc.string({ unit: "binary-ascii", maxLength: 40 }).map((value) => value.replace(/[\0\r\n]/g, "")),
        ),
        async (body, extra) => {
          const headers = new Headers(createHeaders());
          for (const [name, value] of Object.entries(extra)) headers.set(name, value);
          const response = await handler(
            new Request(`${URL_BASE}/events`, { method: "POST", headers, body }),
          );
          expect(statuses).toContain(response.status);
          const parsed = (await response.json()) as { data?: unknown; errors?: unknown };
          expect(parsed.data ?? parsed.errors).toBeDefined();
        },
      ),
      { numRuns: 200 },
    );
    await handler.close();
  });
});

describe("createEventsHandler: idempotency", () => {
  it("replays a completed key byte for byte, marked as a replay", async () => {
    const { handler, calls } = handlerWith({ location: (id) => `/events/${id}` });
    const first = await handler(post("k1", documentFor("a", "k1")));
    const again = await handler(post("k1", documentFor("a", "k1")));
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await snapshot(again)).toBe(await snapshot(first));
    expect(calls).toHaveLength(1);
    await handler.close();
  });

  it("treats member order and white space as the same document, and another document as reuse", async () => {
    const { handler, calls } = handlerWith();
    const document = documentFor("a", "k2") as { data: Record<string, unknown> };
    await handler(post("k2", document));
    const reordered = JSON.stringify(
      { data: Object.fromEntries(Object.entries(document.data).reverse()) },
      null,
      2,
    );
    const same = await handler(
      new Request(`${URL_BASE}/events`, { method: "POST", headers: createHeaders("k2"), body: reordered }),
    );
    expect(same.headers.get("idempotent-replayed")).toBe("true");
    const reused = await handler(post("k2", documentFor("b", "k2")));
    expect(reused.status).toBe(422);
    expect((await errorsOf(reused))[0]).toMatchObject({
      code: "ERR_IDEMPOTENCY_KEY_REUSED",
      source: { pointer: "/data/meta/idempotency-key" },
    });
    expect(calls).toHaveLength(1);
    await handler.close();
  });

  it("answers 409 with Retry-After while the first request runs, and 422 for another document", async () => {
    let finish: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const handler = createEventsHandler({
      authorize,
      create: async () => {
        await gate;
        return { id: "e1" };
      },
    });
    const first = handler(post("k3", documentFor("a", "k3")));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const concurrent = await handler(post("k3", documentFor("a", "k3")));
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await errorsOf(concurrent))[0]).toMatchObject({ code: "ERR_IDEMPOTENCY_KEY_IN_FLIGHT" });
    expect((await handler(post("k3", documentFor("b", "k3")))).status).toBe(422);
    finish();
    expect((await first).status).toBe(201);
    await handler.close();
  });

  it("scopes keys per principal", async () => {
    const { handler, calls } = handlerWith();
    const a = await handler(post("shared", documentFor("a", "shared")));
    const b = await handler(
      post("shared", documentFor("a", "shared"), { authorization: "Bearer other-tenant" }),
    );
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(await b.text()).not.toBe(await a.text());
    expect(calls.map((call) => call.principal)).toEqual(["tenant-a", "tenant-b"]);
    await handler.close();
  });

  it("does not de-duplicate requests without a key", async () => {
    const { handler, calls } = handlerWith();
    await handler(post(undefined, documentFor("a")));
    await handler(post(undefined, documentFor("a")));
    expect(calls).toHaveLength(2);
    expect(calls[0]!.idempotencyKey).toBeUndefined();
    await handler.close();
  });

  it("extends the lease while create runs longer than it", async () => {
    const counting = countingCreate(250);
    const handler = createEventsHandler({ authorize, create: counting.create, leaseMs: 60 });
    const first = handler(post("slow", documentFor("a", "slow")));
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await handler(post("slow", documentFor("a", "slow")))).status).toBe(409);
    }
    expect((await first).status).toBe(201);
    expect(counting.calls).toHaveLength(1);
    await handler.close();
  });

  it("extends the leases of creates that start after quick ones finished, at once or after a pause", async () => {
    // The one lease timer outlives a quick request for a moment: a slow create that comes right
    // after it, or after the timer stopped, must still have its lease extended.
    let counter = 0;
    const handler = createEventsHandler({
      authorize,
      leaseMs: 60,
      create: async ({ idempotencyKey }) => {
        if (idempotencyKey?.startsWith("slow")) await new Promise((resolve) => setTimeout(resolve, 200));
        return { id: `01JD8X${String(++counter).padStart(20, "0")}` };
      },
    });
    for (const [quick, slow, pauseMs] of [
      ["quick-1", "slow-1", 0],
      ["quick-2", "slow-2", 80],
    ] as const) {
      expect((await handler(post(quick, documentFor("a", quick)))).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const first = handler(post(slow, documentFor("a", slow)));
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect((await handler(post(slow, documentFor("a", slow)))).status).toBe(409);
      }
      expect((await first).status).toBe(201);
    }
    expect(counter).toBe(4);
    await handler.close();
  });

  it("lets a retry take over a crashed holder's key after its lease, and refuses the stale holder's writes", async () => {
    const store = createMemoryIdempotencyStore();
    const { handler, calls } = handlerWith({ store, leaseMs: 50 });
    const crashed = { scope: "tenant-a", key: "k-crash", token: "dead-holder" };
    const { fingerprintDocument } = await import("./fingerprintDocument.js");
    const document = documentFor("a", "k-crash");
    const fingerprint = await fingerprintDocument(JSON.parse(JSON.stringify(document)));
    expect((await store.claim({ ...crashed, fingerprint, leaseMs: 50 })).status).toBe("claimed");
    expect((await handler(post("k-crash", document))).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 70));
    const takeover = await handler(post("k-crash", document));
    expect(takeover.status).toBe(201);
    const stale = { status: 201, headers: [], body: "stale" };
    expect(await store.complete(crashed, stale, 60_000)).toBe(false);
    expect(await store.release(crashed)).toBe(false);
    const replay = await handler(post("k-crash", document));
    expect(await snapshot(replay)).toBe(await snapshot(takeover.clone()));
    expect(calls).toHaveLength(1);
    await handler.close();
    await store.close();
  });

  it("aborts create's signal when the claim is lost, and answers 409 instead of its result", async () => {
    const store = createMemoryIdempotencyStore();
    let signal: AbortSignal | undefined;
    const handler = createEventsHandler({
      authorize,
      store,
      leaseMs: 30,
      create: async (request) => {
        signal = request.signal;
        await new Promise((resolve) => setTimeout(resolve, 120));
        return { id: "late" };
      },
    });
    // Another request takes the key over once the holder's lease lapses.
    const pending = handler(post("k-lost", documentFor("a", "k-lost")));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stolen = await stealKey(store, "tenant-a", "k-lost", documentFor("a", "k-lost"));
    expect(stolen).toBe(true);
    const response = await pending;
    expect(signal?.aborted).toBe(true);
    expect(response.status).toBe(409);
    await handler.close();
    await store.close();
  });

  it.each([
    ["rejects", (): Promise<never> => Promise.reject(new Error("ECONNREFUSED redis://user:secret@host"))],
    ["never answers", (): Promise<never> => new Promise<never>(() => undefined)],
  ])("answers 503 with Retry-After when the store %s", async (_name, failing) => {
    const store: IdempotencyStore = {
      claim: failing,
      extend: failing,
      complete: failing,
      release: failing,
      close: async () => undefined,
    };
    const { handler, calls } = handlerWith({ store, storeTimeoutMs: 50 });
    const started = Date.now();
    const response = await handler(post("k-down", documentFor("a", "k-down")));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.text()).not.toContain("secret");
    expect(calls).toHaveLength(0);
    await handler.close();
  });
});

describe("createEventsHandler: one principal out of room", () => {
  it("is answered 429 ERR_QUOTA_EXCEEDED with Retry-After, while another principal still creates", async () => {
    // A memory store whose per-principal share holds one unfinished claim.
    const store = createMemoryIdempotencyStore({ maxEntriesPerScope: 1 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = createEventsHandler({
      authorize: (request) => request.headers.get("authorization"),
      store,
      create: async ({ idempotencyKey }) => {
        if (idempotencyKey === "q-1") await held;
        return { id: `id-${idempotencyKey}` };
      },
    });
    const as = (principal: string, key: string) => {
      const request = post(key, documentFor(principal, key));
      request.headers.set("authorization", principal);
      return handler(request);
    };
    const first = as("tenant-a", "q-1");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await as("tenant-a", "q-2");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(JSON.stringify(await refused.json())).toContain("ERR_QUOTA_EXCEEDED");
    expect((await as("tenant-b", "q-3")).status).toBe(201);
    release();
    expect((await first).status).toBe(201);
    await handler.close();
    await store.close();
  });
});

describe("createEventsHandler: a claim that outlives its 503", () => {
  it("is released when it lands, so the client's retry creates the event instead of waiting out a lease", async () => {
    const memory = createMemoryIdempotencyStore();
    let stalled = true;
    let landed: Promise<unknown> | undefined;
    // A store that stalls (Redis under DEBUG SLEEP) for the first claim, then answers it late.
    const store: IdempotencyStore = {
      ...memory,
      claim: (claim) => {
        if (!stalled) return memory.claim(claim);
        stalled = false;
        landed = new Promise((resolve) => setTimeout(resolve, 120)).then(() => memory.claim(claim));
        return landed as ReturnType<IdempotencyStore["claim"]>;
      },
      extend: (ref, leaseMs) => memory.extend(ref, leaseMs),
      complete: (ref, response, retentionMs) => memory.complete(ref, response, retentionMs),
      release: (ref) => memory.release(ref),
      close: () => memory.close(),
    };
    const { handler, calls } = handlerWith({ store, storeTimeoutMs: 30, leaseMs: 60_000 });
    const first = await handler(post("k-stall", documentFor("a", "k-stall")));
    expect(first.status).toBe(503);
    await landed;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const retry = await handler(post("k-stall", documentFor("a", "k-stall")));
    expect(retry.status).toBe(201);
    expect(calls).toHaveLength(1);
    await handler.close();
    await memory.close();
  });
});

describe("createEventsHandler: close", () => {
  it("waits for requests under way, then answers 503, and is idempotent", async () => {
    const counting = countingCreate(50);
    const handler = createEventsHandler({ authorize, create: counting.create });
    const pending = handler(post("k-close", documentFor("a", "k-close")));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = handler.close();
    expect(handler.close()).toBe(closing);
    await closing;
    // create finished after the signal aborted and its result was stored: the event exists, so it is answered.
    expect((await pending).status).toBe(201);
    const after = await handler(post("k-new", documentFor("a", "k-new")));
    expect(after.status).toBe(503);
  });
});

/** Blocks the event loop past the holder's lease (so its renewals cannot run), then claims the key. */
async function stealKey(store: IdempotencyStore, scope: string, key: string, document: unknown) {
  const { fingerprintDocument } = await import("./fingerprintDocument.js");
  const fingerprint = await fingerprintDocument(JSON.parse(JSON.stringify(document)));
  const until = Date.now() + 40;
  while (Date.now() < until) {
    // Busy wait: timers cannot run, so the 30 ms lease lapses.
  }
  const result = await store.claim({ scope, key, token: "thief", fingerprint, leaseMs: 60_000 });
  return result.status === "claimed";
}

describe("createEventsHandler: many creates at once", () => {
  it("adds no listener per request to a shared signal (no MaxListenersExceededWarning), and close aborts them all", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const signals: AbortSignal[] = [];
    const handler = createEventsHandler({
      authorize,
      create: async ({ signal }) => {
        signals.push(signal);
        await gate;
        return { id: `01JD8X5QK3M2${String(signals.length).padStart(14, "0")}` };
      },
    });
    const answers = Array.from({ length: 40 }, (_, i) =>
      handler(post(i % 2 === 0 ? `many-${i}` : undefined, documentFor(`many-${i}`))),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signals).toHaveLength(40);
    const closed = handler.close();
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    release();
    await Promise.all(answers);
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off("warning", onWarning);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});

describe("createEventsHandler: deadlines", () => {
  it("gives up a create past createTimeoutMs: its signal aborts, its key is free, 503 ERR_CREATE_TIMEOUT", async () => {
    const store = createMemoryIdempotencyStore();
    const signals: AbortSignal[] = [];
    let calls = 0;
    const handler = createEventsHandler({
      authorize,
      store,
      createTimeoutMs: 50,
      create: async ({ signal }) => {
        calls++;
        signals.push(signal);
        if (calls === 1) await new Promise(() => undefined); // never settles
        return { id: "01JD8X5QK3M200000000000002" };
      },
    });
    const first = await handler(post("hung-1", documentFor("a", "hung-1")));
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("1");
    expect((await errorsOf(first))[0]!.code).toBe("ERR_CREATE_TIMEOUT");
    expect(signals[0]!.aborted).toBe(true);
    // The key was released: the retry creates instead of answering 409.
    const retry = await handler(post("hung-1", documentFor("a", "hung-1")));
    expect(retry.status).toBe(201);
    await handler.close({ timeoutMs: 10 });
    await store.close();
  });

  it("close returns within its bound with a create that never settles, answering it 503 and freeing its key", async () => {
    const store = createMemoryIdempotencyStore();
    const handler = createEventsHandler({
      authorize,
      store,
      create: () => new Promise(() => undefined),
    });
    const pending = handler(post("hung-2", documentFor("a", "hung-2")));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await handler.close({ timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(1_000);
    const answer = await pending;
    expect(answer.status).toBe(503);
    const { fingerprintDocument } = await import("./fingerprintDocument.js");
    const fingerprint = await fingerprintDocument(JSON.parse(JSON.stringify(documentFor("a", "hung-2"))));
    const claim = await store.claim({
      scope: "tenant-a",
      key: "hung-2",
      token: "next",
      fingerprint,
      leaseMs: 1_000,
    });
    expect(claim.status).toBe("claimed");
    await store.close();
  });

  it("answers a 409 with a Retry-After derived from leaseMs, from 1 to 5 seconds", async () => {
    for (const [leaseMs, expected] of [
      [1_000, "1"],
      [9_000, "3"],
      [30_000, "5"],
    ] as const) {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const handler = createEventsHandler({
        authorize,
        leaseMs,
        create: async () => {
          await gate;
          return { id: "01JD8X5QK3M200000000000003" };
        },
      });
      const first = handler(post("busy", documentFor("a", "busy")));
      await new Promise((resolve) => setTimeout(resolve, 10));
      const second = await handler(post("busy", documentFor("a", "busy")));
      expect(second.status).toBe(409);
      expect(second.headers.get("retry-after")).toBe(expected);
      release();
      expect((await first).status).toBe(201);
      await handler.close();
    }
  });

  it("answers 408 ERR_BODY_TIMEOUT to a body stream that stalls", async () => {
    const { handler } = handlerWith({ bodyTimeoutMs: 50 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data":'));
      },
    });
    const response = await handler(
      new Request(`${URL_BASE}/events`, {
        method: "POST",
        headers: createHeaders("stall"),
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(408);
    expect((await errorsOf(response))[0]!.code).toBe("ERR_BODY_TIMEOUT");
    await handler.close();
  });
});

describe("createEventsHandler: 401", () => {
  it("carries WWW-Authenticate with the scheme of authenticationScheme (Bearer by default)", async () => {
    const plain = handlerWith();
    const response = await plain.handler(post("k", documentFor("a"), { authorization: "nope" }));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    await plain.handler.close();
    const basic = handlerWith({ authenticationScheme: 'Basic realm="events"' });
    const other = await basic.handler(post("k", documentFor("a"), { authorization: "nope" }));
    expect(other.headers.get("www-authenticate")).toBe('Basic realm="events"');
    await basic.handler.close();
  });
});
