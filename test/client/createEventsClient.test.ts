/**
 * The client against a real HTTP server on loopback that plays the service and injects faults.
 * Each test checks what the server received: how many requests, that every one carried the same key
 * and the same document, and how many events exist in the end.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createEventsClient,
  EventsApiError,
  EventsResponseError,
  EventsRetryError,
  EventValidationError,
  IdempotencyEchoError,
} from "../../src/index.js";
import { useFakeService } from "../support/fakeService.js";

const fake = useFakeService();

const client = () =>
  createEventsClient({
    baseUrl: fake().url,
    authorization: "Bearer test-token",
    retry: { delaysMs: [10, 20, 40], maxRetryAfterMs: 1500 },
    timeoutMs: 300,
  });

const message = { type: "s.message.text" as const, content: { body: "Grüße 👋" } };

/** Every request carried the same key, in the header and in the document, and the same bytes. */
function expectSameKeyAndDocument(count: number): string {
  expect(fake().requests).toHaveLength(count);
  const [first] = fake().requests;
  const key = String(first!.headers["service-idempotency-key"]);
  for (const request of fake().requests) {
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/events");
    expect(request.headers["service-idempotency-key"]).toBe(key);
    expect(request.body).toBe(first!.body);
    expect(JSON.parse(request.body).data.meta["idempotency-key"]).toBe(key);
  }
  return key;
}

describe("createEvent against a loopback service", () => {
  it("sends the JSON:API document with the headers the spec names, and returns the typed resource", async () => {
    const { data: event, replayed } = await client().createEvent(message);
    const key = expectSameKeyAndDocument(1);
    const [request] = fake().requests;
    expect(request!.headers.authorization).toBe("Bearer test-token");
    expect(request!.headers["content-type"]).toBe("application/vnd.api+json");
    expect(request!.headers.accept).toBe("application/vnd.api+json");
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(JSON.parse(request!.body)).toEqual({
      data: {
        type: "events",
        attributes: { eventType: message.type, content: message.content },
        meta: { "idempotency-key": key },
      },
    });
    expect(event.attributes.content.body).toBe("Grüße 👋");
    expect(event.meta?.["idempotency-key"]).toBe(key);
    expect(replayed).toBe(false);
    expect(fake().events.size).toBe(1);
  });

  it("refuses invalid options at once", () => {
    expect(() => createEventsClient({ baseUrl: "not a url", authorization: "c" })).toThrow(TypeError);
    expect(() => createEventsClient({ baseUrl: fake().url, authorization: 42 as never })).toThrow(
      /authorization/,
    );
    expect(() =>
      createEventsClient({ baseUrl: fake().url, authorization: "c", retry: { delaysMs: [-1] } }),
    ).toThrow(/retry\.delaysMs/);
    expect(() =>
      createEventsClient({ baseUrl: fake().url, authorization: "c", timeoutMs: Number.NaN }),
    ).toThrow(/timeoutMs/);
  });

  it("types the created event by its type", async () => {
    const { data: event } = await client().createEvent({
      type: "s.timer",
      content: { status: "RUNNING", expires: "2026-11-22T18:00:00Z" },
    });
    expectTypeOf(event.attributes.eventType).toEqualTypeOf<"s.timer">();
    if (event.attributes.content.status === "RUNNING")
      expectTypeOf(event.attributes.content.expires).toEqualTypeOf<string>();
    expectTypeOf(event.id).toEqualTypeOf<string>();
    expect(event.attributes.content).toEqual({ status: "RUNNING", expires: "2026-11-22T18:00:00Z" });
  });

  it("uses the caller's key", async () => {
    await client().createEvent(message, { idempotencyKey: "order-42" });
    expect(expectSameKeyAndDocument(1)).toBe("order-42");
  });

  it("retries a dropped connection with the same key: one event in the end", async () => {
    fake().script.push({ kind: "create-then-drop" });
    const { data: event } = await client().createEvent(message);
    const key = expectSameKeyAndDocument(2);
    expect(fake().events.size).toBe(1);
    expect(event.meta?.["idempotency-key"]).toBe(key);
    expect(event.id).toBe(JSON.parse(fake().events.get(key)!.response).data.id);
  });

  it("retries a 503 and succeeds on the 201", async () => {
    fake().script.push({ kind: "status", status: 503 });
    await client().createEvent(message);
    expectSameKeyAndDocument(2);
    expect(fake().events.size).toBe(1);
  });

  it("honours Retry-After on a 429", async () => {
    fake().script.push({ kind: "status", status: 429, retryAfter: "1" });
    await client().createEvent(message);
    expectSameKeyAndDocument(2);
    const [first, second] = fake().requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(fake().events.size).toBe(1);
  });

  it("retries a time-out (the service created the event but answered too late): one event", async () => {
    fake().script.push({ kind: "create-then-stall", ms: 1000 });
    await client().createEvent(message);
    expectSameKeyAndDocument(2);
    expect(fake().events.size).toBe(1);
  });

  it("retries a time-out while the body of a 201 is still arriving: one event", async () => {
    fake().script.push({ kind: "create-then-stall-body", ms: 1000 });
    const { data: event } = await client().createEvent(message);
    const key = expectSameKeyAndDocument(2);
    expect(fake().events.size).toBe(1);
    expect(event.meta?.["idempotency-key"]).toBe(key);
  });

  it("keeps the base URL's query and puts /events in the path", async () => {
    const tenant = createEventsClient({ baseUrl: `${fake().url}/?tenant=7#ignored`, authorization: "c" });
    await tenant.createEvent(message);
    expect(fake().requests[0]?.path).toBe("/v1/events?tenant=7");
  });

  it("with an infinite time-out, waits as long as the service takes", async () => {
    fake().script.push({ kind: "create-then-stall", ms: 400 });
    const patient = createEventsClient({
      baseUrl: fake().url,
      authorization: "c",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    await patient.createEvent(message);
    expectSameKeyAndDocument(1);
  });

  it("refuses keys that cannot travel unchanged in a header, before sending", async () => {
    for (const idempotencyKey of [" order-42 ", "заказ-42", "line\nbreak"]) {
      await expect(client().createEvent(message, { idempotencyKey })).rejects.toMatchObject({
        name: "IdempotencyKeyError",
        code: "ERR_INVALID_IDEMPOTENCY_KEY",
      });
    }
    expect(fake().requests).toHaveLength(0);
    expect(() => createEventsClient({ baseUrl: fake().url, authorization: "Bearer a\nb" })).toThrow(
      TypeError,
    );
    expect(() =>
      createEventsClient({ baseUrl: fake().url, authorization: "c", retry: { jitter: 1 } }),
    ).toThrow(/retry\.jitter must be a number from 0 to below 1/);
  });

  it("never retries a 422, and returns the service's JSON:API errors", async () => {
    const errors = [
      {
        status: "422",
        code: "too_long",
        title: "Too long",
        detail: "content.body is too long",
        source: { pointer: "/data/attributes/content/body" },
      },
    ];
    fake().script.push({ kind: "status", status: 422, body: { errors } });
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventsApiError);
    expect(failure).toMatchObject({
      code: "ERR_EVENTS_API",
      serviceCode: "too_long",
      detail: "content.body is too long",
      status: 422,
      errors,
    });
    expect((failure as Error).message).toBe(
      'the service answered 422 (too_long): "content.body is too long"',
    );
    expectSameKeyAndDocument(1);
    expect(fake().events.size).toBe(0);
  });

  it("reports a response without the key echo", async () => {
    fake().script.push({ kind: "create-without-echo" });
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IdempotencyEchoError);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_IDEMPOTENCY_ECHO", echoed: undefined });
    expectSameKeyAndDocument(1);
  });

  it("gives up after the retries with a typed error, every attempt with the same key", async () => {
    fake().script.push(...Array.from({ length: 4 }, () => ({ kind: "status" as const, status: 503 })));
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventsRetryError);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_RETRIES_EXHAUSTED", attempts: 4, lastStatus: 503 });
    const key = expectSameKeyAndDocument(4);
    expect((failure as EventsRetryError).idempotencyKey).toBe(key);
    expect(fake().events.size).toBe(0);
  });

  it("stops when the service asks to wait longer than retry.maxRetryAfterMs", async () => {
    fake().script.push({ kind: "status", status: 429, retryAfter: "120" });
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_RETRIES_EXHAUSTED", attempts: 1 });
    expect((failure as Error).message).toMatch(
      /retry after 120 s, longer than retry\.maxRetryAfterMs \(1500 ms\)$/,
    );
    expectSameKeyAndDocument(1);
  });

  it("a network error on every attempt ends in EventsRetryError with the cause", async () => {
    fake().script.push(...Array.from({ length: 4 }, () => ({ kind: "drop" as const })));
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: "ERR_EVENTS_RETRIES_EXHAUSTED",
      attempts: 4,
      lastStatus: undefined,
    });
    expect((failure as Error).cause).toBeInstanceOf(Error);
    expectSameKeyAndDocument(4);
  });

  it("reuses a key after a failure without creating a duplicate; the same key with another document is refused", async () => {
    const { data: first } = await client().createEvent(message, { idempotencyKey: "retry-me" });
    const { data: again } = await client().createEvent(message, { idempotencyKey: "retry-me" });
    expect(again.id).toBe(first.id);
    expect(fake().events.size).toBe(1);
    const other = await client()
      .createEvent({ type: "s.message.text", content: { body: "different" } }, { idempotencyKey: "retry-me" })
      .catch((error: unknown) => error);
    expect(other).toMatchObject({
      code: "ERR_EVENTS_API",
      serviceCode: "ERR_IDEMPOTENCY_KEY_REUSED",
      detail: "the idempotency key was used with a different document",
      status: 422,
    });
    expect((other as EventsApiError).errors[0]?.code).toBe("ERR_IDEMPOTENCY_KEY_REUSED");
  });

  it("never sends invalid content", async () => {
    const failure = await client()
      .createEvent({ type: "s.message.media", content: { mediaId: "m", label: "a", body: "b" } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventValidationError);
    expect(fake().requests).toHaveLength(0);
    await expect(client().createEvent(message, { idempotencyKey: "  " })).rejects.toThrow(TypeError);
    expect(fake().requests).toHaveLength(0);
  });

  it("stops at once when the caller aborts, during a request or a backoff", async () => {
    fake().script.push({ kind: "create-then-stall", ms: 250 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user navigated away")), 50);
    await expect(client().createEvent(message, { signal: controller.signal })).rejects.toThrow(
      "user navigated away",
    );
    expect(fake().requests).toHaveLength(1);

    fake().requests.length = 0;
    fake().script.push({ kind: "status", status: 429, retryAfter: "1" });
    const during = new AbortController();
    setTimeout(() => during.abort(new Error("cancelled")), 150);
    await expect(client().createEvent(message, { signal: during.signal })).rejects.toThrow("cancelled");
    expect(fake().requests).toHaveLength(1);
    const aborted = new AbortController();
    aborted.abort(new Error("before"));
    await expect(client().createEvent(message, { signal: aborted.signal })).rejects.toThrow("before");
  });

  it("reports a 2xx that is not an event resource", async () => {
    fake().script.push({ kind: "status", status: 201, body: { data: { id: "   ", type: "events" } } });
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventsResponseError);
    expect((failure as EventsResponseError).issues.map((issue) => issue.pointer)).toContain("/data/id");
    fake().script.push({ kind: "status", status: 200 });
    await expect(client().createEvent(message)).rejects.toMatchObject({ code: "ERR_EVENTS_BAD_RESPONSE" });
  });
});
