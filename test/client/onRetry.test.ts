/**
 * The client's `onRetry` hook, against a real loopback service: called before each retry with the
 * attempt that failed, how it failed (the status, or the network error's code) and the wait, never
 * with the authorization or the key; a hook that throws or rejects changes nothing. And its
 * `telemetry`: each attempt carries the trace context it gives, which can never replace a header
 * the client sends itself, and an instrumentation that throws changes nothing either.
 */
import { describe, expect, it } from "vitest";
import {
  createEventsClient,
  type EventsClientRetry,
  type EventsClientTelemetry,
  EventsRetryError,
} from "../../src/client/index.js";
import { useFakeService } from "../support/fakeService.js";

const fake = useFakeService();
const TOKEN = "Bearer on-retry-token";
const message = { type: "s.message.text" as const, content: { body: "Hi" } };

describe("onRetry", () => {
  it("hears each retry before it waits: the failed attempt, its status or error code, the wait", async () => {
    fake().script.push(
      { kind: "status", status: 503, retryAfter: "1" },
      { kind: "drop" },
      { kind: "status", status: 500 },
    );
    const retries: (EventsClientRetry & { at: number })[] = [];
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: TOKEN,
      retry: { delaysMs: [10, 20, 30], jitter: 0, maxRetryAfterMs: 2_000 },
      onRetry: (retry) => retries.push({ ...retry, at: Date.now() }),
    });
    await client.createEvent(message, { idempotencyKey: "retry-hook-1" });
    expect(retries.map(({ at: _at, ...retry }) => retry)).toEqual([
      { attempt: 1, delayMs: 1_000, status: 503, errorType: undefined, retryAfterMs: 1_000 },
      {
        attempt: 2,
        delayMs: 20,
        status: undefined,
        errorType: expect.stringMatching(/^[A-Z][A-Za-z0-9_]+$/),
        retryAfterMs: undefined,
      },
      { attempt: 3, delayMs: 30, status: 500, errorType: undefined, retryAfterMs: undefined },
    ]);
    // Called before the wait: the next request came at least the wait after the call.
    const requests = fake().requests;
    for (const [index, retry] of retries.entries()) {
      expect(requests[index + 1]!.at - retry.at).toBeGreaterThanOrEqual(retry.delayMs - 5);
    }
    const heard = JSON.stringify(retries);
    expect(heard).not.toContain("on-retry-token");
    expect(heard).not.toContain("retry-hook-1");
  });

  it("a hook that throws or rejects changes nothing", async () => {
    for (const onRetry of [
      () => {
        throw new Error("logger down");
      },
      () => Promise.reject(new Error("logger down")),
    ]) {
      fake().script.push({ kind: "status", status: 502 });
      const client = createEventsClient({
        baseUrl: fake().url,
        authorization: TOKEN,
        retry: { delaysMs: [5] },
        onRetry,
      });
      const { data } = await client.createEvent(message);
      expect(data.id).toMatch(/^01JD8X/);
    }
  });

  it("is not called when no retry is left", async () => {
    fake().script.push({ kind: "status", status: 503 });
    const retries: EventsClientRetry[] = [];
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: TOKEN,
      retry: { delaysMs: [] },
      onRetry: (retry) => retries.push(retry),
    });
    await expect(client.createEvent(message)).rejects.toBeInstanceOf(EventsRetryError);
    expect(retries).toEqual([]);
  });

  it("must be a function", () => {
    expect(() =>
      createEventsClient({ baseUrl: fake().url, authorization: TOKEN, onRetry: "log" as never }),
    ).toThrow(/onRetry must be a function/);
  });
});

describe("telemetry", () => {
  /** An instrumentation that hands out fixed headers and records what it hears. */
  function recordingTelemetry(headers: Record<string, string>, heard: string[]): EventsClientTelemetry {
    return {
      startCreateEvent: ({ eventType, url }) => {
        heard.push(`create ${eventType} ${url}`);
        return {
          startAttempt: ({ attempt }) => ({
            headers,
            run: (fn) => {
              heard.push(`run ${attempt}`);
              return fn();
            },
            end: ({ status, errorType }) => heard.push(`end ${attempt} ${status ?? errorType}`),
          }),
          retry: ({ attempt, delayMs }) => heard.push(`retry ${attempt} ${delayMs}`),
          end: ({ replayed, errorType }) => heard.push(`done ${replayed ?? errorType}`),
        };
      },
    };
  }

  it("adds each attempt's trace context, never in place of the client's own headers", async () => {
    fake().script.push({ kind: "status", status: 500 });
    const heard: string[] = [];
    const client = createEventsClient({
      baseUrl: `${fake().url}?tenant=acme`,
      authorization: TOKEN,
      retry: { delaysMs: [5], jitter: 0 },
      telemetry: recordingTelemetry(
        {
          traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
          tracestate: "vendor=value",
          authorization: "Bearer stolen",
          "Service-Idempotency-Key": "other",
          "bad header": "x",
          baggage: "line\nbreak",
        },
        heard,
      ),
    });
    await client.createEvent(message, { idempotencyKey: "trace-headers-1" });
    expect(fake().requests).toHaveLength(2);
    for (const request of fake().requests) {
      expect(request.headers.traceparent).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
      expect(request.headers.tracestate).toBe("vendor=value");
      expect(request.headers.authorization).toBe(TOKEN);
      expect(request.headers["service-idempotency-key"]).toBe("trace-headers-1");
      expect(request.headers.baggage).toBeUndefined();
    }
    expect(heard).toEqual([
      // The base URL's query stays out of what telemetry hears.
      `create s.message.text ${fake().url.replace(/\/?$/, "/events")}`,
      "run 1",
      "end 1 500",
      "retry 1 5",
      "run 2",
      "end 2 201",
      "done false",
    ]);
  });

  it("an instrumentation that throws changes nothing", async () => {
    const broken: EventsClientTelemetry = {
      startCreateEvent: () => ({
        startAttempt: () => {
          throw new Error("exporter down");
        },
        retry: () => {
          throw new Error("exporter down");
        },
        end: () => {
          throw new Error("exporter down");
        },
      }),
    };
    fake().script.push({ kind: "status", status: 503 });
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: TOKEN,
      retry: { delaysMs: [5] },
      telemetry: broken,
    });
    const { data } = await client.createEvent(message);
    expect(data.id).toMatch(/^01JD8X/);
    expect(() =>
      createEventsClient({
        baseUrl: fake().url,
        authorization: TOKEN,
        telemetry: {} as EventsClientTelemetry,
      }),
    ).toThrow(/telemetry must be an object with a startCreateEvent method/);
  });
});
