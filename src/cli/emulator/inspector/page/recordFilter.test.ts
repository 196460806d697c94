import { describe, expect, it } from "vitest";
import type { DeliveryRecord, RequestRecord } from "../InspectorRecord.js";
import { matchesFilter, NO_FILTER } from "./recordFilter.js";

const request = (status: number, replayed = false): RequestRecord => ({
  kind: "request",
  id: `r${status}`,
  at: 0,
  method: "POST",
  path: "/events",
  status,
  durationMs: 1,
  idempotencyKey: "Key-42",
  replayed,
  eventType: "s.message.text",
  eventId: undefined,
  source: "client",
  headers: [],
  request: { text: '{"body":"Hello Dana"}', bytes: 21, cut: false },
  response: { text: "", bytes: 0, cut: false },
  errors: [],
  deliveries: [],
});

const delivery: DeliveryRecord = {
  kind: "delivery",
  id: "d:1",
  at: 0,
  deliveryId: "1",
  eventId: undefined,
  endpointId: "endpoint-1",
  url: "http://127.0.0.1:3000/",
  type: "s.room.close",
  body: { text: "{}", bytes: 2, cut: false },
  state: "dead",
  nextRetryAt: undefined,
  deadReason: "network error (ECONNREFUSED)",
  redeliverable: true,
  attempts: [],
  omittedAttempts: 0,
};

describe("matchesFilter", () => {
  it("filters by type, status class, delivery state, replay and text", () => {
    expect(matchesFilter(request(201), NO_FILTER)).toBe(true);
    expect(matchesFilter(request(201), { ...NO_FILTER, type: "s.message.text" })).toBe(true);
    expect(matchesFilter(request(201), { ...NO_FILTER, type: "s.room.close" })).toBe(false);
    expect(matchesFilter(delivery, { ...NO_FILTER, type: "s.room.close" })).toBe(true);
    expect(matchesFilter(request(422), { ...NO_FILTER, status: "4xx" })).toBe(true);
    expect(matchesFilter(request(201), { ...NO_FILTER, status: "4xx" })).toBe(false);
    expect(matchesFilter(request(200, true), { ...NO_FILTER, status: "replayed" })).toBe(true);
    expect(matchesFilter(request(200), { ...NO_FILTER, status: "replayed" })).toBe(false);
    expect(matchesFilter(delivery, { ...NO_FILTER, status: "dead" })).toBe(true);
    expect(matchesFilter(request(201), { ...NO_FILTER, status: "dead" })).toBe(false);
    expect(matchesFilter(request(201), { ...NO_FILTER, text: "hello dana" })).toBe(true);
    expect(matchesFilter(request(201), { ...NO_FILTER, text: "key-42" })).toBe(true);
    expect(matchesFilter(delivery, { ...NO_FILTER, text: "econnrefused" })).toBe(true);
    expect(matchesFilter(delivery, { ...NO_FILTER, text: "nowhere" })).toBe(false);
  });
});
