/**
 * Which answers the client retries, against a real loopback service: 5xx, 429, and 409 with
 * Retry-After (the same key still in flight at the service), always with the same key and bytes;
 * never any other 4xx, whatever headers it carries.
 */
import { describe, expect, it, vi } from "vitest";
import { createEventsClient, EventsApiError, EventsRetryError } from "../../src/index.js";
import { useFakeService } from "../support/fakeService.js";

const fake = useFakeService();

const client = () =>
  createEventsClient({
    baseUrl: fake().url,
    authorization: "Bearer test-token",
    retry: { delaysMs: [10, 20, 40], maxRetryAfterMs: 1_500 },
    timeoutMs: 2_000,
  });

const message = { type: "s.message.text" as const, content: { body: "Hi" } };

function expectSameKeyAndBytes(count: number): void {
  expect(fake().requests).toHaveLength(count);
  const [first] = fake().requests;
  for (const request of fake().requests) {
    expect(request.headers["service-idempotency-key"]).toBe(first!.headers["service-idempotency-key"]);
    expect(request.body).toBe(first!.body);
  }
}

const inFlight = (retryAfter: string) => ({
  kind: "status" as const,
  status: 409,
  retryAfter,
  body: { errors: [{ status: "409", code: "ERR_IDEMPOTENCY_KEY_IN_FLIGHT", title: "In flight" }] },
});

describe("retries", () => {
  it("retries a 409 with Retry-After (the key still in flight), waiting as asked, with the same key and bytes", async () => {
    fake().script.push(inFlight("1"));
    const { data: event } = await client().createEvent(message);
    expectSameKeyAndBytes(2);
    const [first, second] = fake().requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(fake().events.size).toBe(1);
    expect(event.meta?.["idempotency-key"]).toBe(first!.headers["service-idempotency-key"]);
  });

  it("a key in flight on every attempt ends in EventsRetryError with the last status 409", async () => {
    fake().script.push(...Array.from({ length: 4 }, () => inFlight("0")));
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventsRetryError);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_RETRIES_EXHAUSTED", attempts: 4, lastStatus: 409 });
    expect((failure as Error).message).toBe("gave up after 4 attempts; the last answer was 409");
    expectSameKeyAndBytes(4);
  });

  it("without retries, gives up after the one attempt, and says so in good English", async () => {
    fake().script.push({ kind: "status", status: 503 });
    const once = createEventsClient({
      baseUrl: fake().url,
      authorization: "Bearer t",
      retry: { delaysMs: [] },
    });
    const failure = await once.createEvent(message).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_RETRIES_EXHAUSTED", attempts: 1, lastStatus: 503 });
    expect((failure as Error).message).toBe("gave up after 1 attempt; the last answer was 503");
    expectSameKeyAndBytes(1);
  });

  it("waits before each retry as retry.delaysMs says, exactly with jitter 0", async () => {
    fake().script.push({ kind: "status", status: 503 }, { kind: "status", status: 503 });
    const exact = createEventsClient({
      baseUrl: fake().url,
      authorization: "Bearer t",
      retry: { delaysMs: [100, 400], jitter: 0 },
    });
    await exact.createEvent(message);
    expectSameKeyAndBytes(3);
    const [first, second, third] = fake().requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(95);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(395);
    expect(third!.at - second!.at - (second!.at - first!.at)).toBeGreaterThanOrEqual(200);
  });

  it("spreads each wait by ±jitter", async () => {
    fake().script.push({ kind: "status", status: 503 });
    const random = vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      const spread = createEventsClient({
        baseUrl: fake().url,
        authorization: "Bearer t",
        retry: { delaysMs: [600], jitter: 0.5 },
      });
      await spread.createEvent(message);
    } finally {
      random.mockRestore();
    }
    const [first, second] = fake().requests;
    // The lowest point of 600 ms ± 50%: 300 ms.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(295);
    expect(second!.at - first!.at).toBeLessThan(590);
  });

  it.each([500, 502, 503, 504, 429])("retries a %i", async (status) => {
    fake().script.push({ kind: "status", status });
    await client().createEvent(message);
    expectSameKeyAndBytes(2);
    expect(fake().events.size).toBe(1);
  });

  it.each([400, 401, 403, 404, 405, 406, 409, 410, 412, 413, 415, 422, 451])(
    "never retries a %i, even with Retry-After (except 409), and reports it",
    async (status) => {
      fake().script.push({
        kind: "status",
        status,
        ...(status === 409 ? {} : { retryAfter: "0" }),
        body: { errors: [{ status: String(status), title: "Refused" }] },
      });
      const failure = await client()
        .createEvent(message)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(EventsApiError);
      expect(failure).toMatchObject({ code: "ERR_EVENTS_API", status, errors: [{ title: "Refused" }] });
      expect(fake().requests).toHaveLength(1);
      expect(fake().events.size).toBe(0);
    },
  );

  it("a network error on every attempt keeps the last one as cause, and says what it was, quoted", async () => {
    fake().script.push(...Array.from({ length: 4 }, () => ({ kind: "drop" as const })));
    const failure = (await client()
      .createEvent(message)
      .catch((error: unknown) => error)) as EventsRetryError;
    expect(failure.message).toMatch(/^gave up after 4 attempts; the last attempt failed: "[^"\n]+"$/);
    expect(failure.cause).toBeInstanceOf(TypeError); // fetch's own network error
  });
});

describe("a network error in a browser", () => {
  it.each([
    ["Chromium", "Failed to fetch", true],
    ["Firefox", "NetworkError when attempting to fetch resource.", true],
    ["Safari", "Load failed", true],
    ["Node", "fetch failed", false],
  ])("%s's message (%s) names CORS as a likely cause: %s", async (_browser, message, hinted) => {
    const client = createEventsClient({
      baseUrl: "https://service.example",
      authorization: "Bearer t",
      retry: { delaysMs: [] },
      fetch: async () => {
        throw new TypeError(message);
      },
    });
    const error = await client
      .createEvent({ type: "s.room.close", content: {} })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(EventsRetryError);
    expect((error as Error).message.includes("CORS")).toBe(hinted);
    expect((error as Error).message).toContain(message.slice(0, 12));
  });
});
