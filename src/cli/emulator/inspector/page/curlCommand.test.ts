import { describe, expect, it } from "vitest";
import type { DeliveryRecord, RequestRecord } from "../InspectorRecord.js";
import { attemptCurl, requestCurl, shellQuote } from "./curlCommand.js";

const request: RequestRecord = {
  kind: "request",
  id: "r1",
  at: 0,
  method: "POST",
  path: "/events",
  status: 201,
  durationMs: 3,
  idempotencyKey: "k-1",
  replayed: false,
  eventType: "s.message.text",
  eventId: "01J",
  source: "client",
  headers: [
    ["authorization", "(hidden)"],
    ["content-type", "application/vnd.api+json"],
    ["service-idempotency-key", "k-1"],
    ["user-agent", "test"],
  ],
  request: { text: `{"body":"it's"}`, bytes: 15, cut: false },
  response: { text: "", bytes: 0, cut: false },
  errors: [],
  deliveries: [],
};

const delivery: DeliveryRecord = {
  kind: "delivery",
  id: "d:abc",
  at: 0,
  deliveryId: "abc",
  eventId: undefined,
  endpointId: "endpoint-1",
  url: "http://127.0.0.1:3000/hooks",
  type: "s.room.close",
  body: { text: '{"type":"s.room.close","version":2,"content":{}}', bytes: 48, cut: false },
  state: "delivered",
  nextRetryAt: undefined,
  deadReason: undefined,
  redeliverable: true,
  attempts: [],
  omittedAttempts: 0,
};

describe("copy as curl", () => {
  it("quotes any text for a POSIX shell", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("a\0b")).toBe("'a\ufffdb'");
  });

  it("repeats a request without its Authorization value, which it reads from the environment", () => {
    const command = requestCurl(request, "http://127.0.0.1:4010");
    expect(command).toContain("curl -i -X POST 'http://127.0.0.1:4010/events'");
    expect(command).toContain(`-H "Authorization: $MESSAGING_EVENTS_AUTHORIZATION"`);
    expect(command).toContain("-H 'service-idempotency-key: k-1'");
    expect(command).toContain(`--data-raw '{"body":"it'\\''s"}'`);
    expect(command).not.toContain("(hidden)");
    expect(command).not.toContain("user-agent");
  });

  it("says when a document was cut", () => {
    expect(requestCurl({ ...request, request: { text: "{", bytes: 99_999, cut: true } }, "http://h")).toMatch(
      /^# .*cut/m,
    );
  });

  it("repeats an attempt with the headers it was sent with", () => {
    const command = attemptCurl(delivery, {
      number: 1,
      at: 0,
      timestamp: "2026-01-01T00:00:00.000Z",
      signature: "sig",
      status: 204,
      durationMs: 2,
      response: undefined,
      outcome: "delivered",
      reason: undefined,
      retryAt: undefined,
      redelivery: false,
    });
    expect(command).toContain("'service-webhook-id: abc'");
    expect(command).toContain("'service-timestamp: 2026-01-01T00:00:00.000Z'");
    expect(command).toContain("'service-signature: sig'");
    expect(command).toContain("curl -i -X POST 'http://127.0.0.1:3000/hooks'");
  });
});
