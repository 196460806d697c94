/**
 * What the service sends back is bounded: a body is read chunk by chunk up to `maxResponseBytes`
 * (1 MiB by default), a never-ending one included, and the service's JSON:API errors are kept
 * bounded and echoed only quoted and cut.
 */
import { describe, expect, it } from "vitest";
import { createEventsClient, EventsApiError, EventsResponseTooLargeError } from "../../src/index.js";
import { useFakeService } from "../support/fakeService.js";

const fake = useFakeService();

const client = (maxResponseBytes?: number) =>
  createEventsClient({
    baseUrl: fake().url,
    authorization: "Bearer test-token",
    retry: { delaysMs: [1, 2, 4], maxRetryAfterMs: 50 },
    timeoutMs: 5_000,
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
  });

const message = { type: "s.message.text" as const, content: { body: "Hi" } };
const chunk = "x".repeat(65_536);

describe("response limits", () => {
  it.each([
    ["a 10 MB 201 body", { status: 201, times: 160 }],
    ["a 10 MB 201 body with its Content-Length", { status: 201, times: 160, contentLength: true }],
    ["a never-ending 201 body", { status: 201, times: Number.POSITIVE_INFINITY }],
    ["a never-ending 422 body", { status: 422, times: Number.POSITIVE_INFINITY }],
  ])("stops reading %s at 1 MiB, hangs up, and does not retry", async (_what, flood) => {
    fake().script.push({ kind: "flood", chunk, ...flood });
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventsResponseTooLargeError);
    expect(failure).toMatchObject({
      code: "ERR_EVENTS_RESPONSE_TOO_LARGE",
      status: flood.status,
      maxResponseBytes: 1_048_576,
    });
    expect(fake().requests).toHaveLength(1);
    // The client hung up long before the end (the socket buffers hold a few MB at most).
    await expect.poll(() => fake().floods[0]?.closedByClient).toBe(true);
    expect(fake().floods[0]!.written).toBeLessThan(9 * 1_048_576);
  });

  it("maxResponseBytes sets the cap", async () => {
    fake().script.push({ kind: "status", status: 422, body: { errors: [{ detail: "x".repeat(2_000) }] } });
    await expect(client(1_000).createEvent(message)).rejects.toMatchObject({
      code: "ERR_EVENTS_RESPONSE_TOO_LARGE",
      maxResponseBytes: 1_000,
      message:
        "the service answered 422 with a body longer than maxResponseBytes (1000 bytes); reading stopped there",
    });
    const { data: event } = await client(10_000).createEvent(message);
    expect(event.attributes.content.body).toBe("Hi");
  });

  it("a 900 KB error detail with line breaks gives a one-line message, the detail cut at 1,000 characters", async () => {
    const detail = `Refused\nERROR forged log line ${"x".repeat(900_000)}`;
    fake().script.push({ kind: "status", status: 400, body: { errors: [{ detail }] } });
    const failure = (await client()
      .createEvent(message)
      .catch((error: unknown) => error)) as EventsApiError;
    expect(failure).toBeInstanceOf(EventsApiError);
    const shown = `Refused\\nERROR forged log line ${"x".repeat(1_000 - 30)}…`;
    expect(failure.message).toBe(`the service answered 400: "${shown}"`);
    expect(failure.message).not.toMatch(/[\n\r]/);
    expect(failure.detail).toBe(`Refused\\nERROR forged log line ${"x".repeat(1_000 - 31)}…`);
    expect(failure.errors[0]!.detail).toBe(failure.detail);
  });

  it("keeps only the first 100 of many error objects", async () => {
    const errors = Array.from({ length: 5_000 }, (_, index) => ({ code: `e${index}`, meta: { index } }));
    fake().script.push({ kind: "status", status: 422, body: { errors } });
    const failure = (await client()
      .createEvent(message)
      .catch((error: unknown) => error)) as EventsApiError;
    expect(failure.errors).toHaveLength(100);
    expect(failure.errors[99]).toEqual({ code: "e99" });
    expect(JSON.stringify(failure).length).toBeLessThan(5_000);
  });
});
