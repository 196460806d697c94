import { describe, expect, it } from "vitest";
import { createInspectorHistory } from "./createInspectorHistory.js";
import type { RequestRecord } from "./InspectorRecord.js";

const request = (id: string, status = 201): RequestRecord => ({
  kind: "request",
  id,
  at: 0,
  method: "POST",
  path: "/events",
  status,
  durationMs: 1,
  idempotencyKey: undefined,
  replayed: false,
  eventType: undefined,
  eventId: undefined,
  source: "client",
  headers: [],
  request: { text: "", bytes: 0, cut: false },
  response: { text: "", bytes: 0, cut: false },
  errors: [],
  deliveries: [],
});

describe("createInspectorHistory", () => {
  it("keeps the newest records, replaces a record where it stands, and tells subscribers", () => {
    const history = createInspectorHistory({ historySize: 2, bodyBytes: 10, attempts: 5 });
    const seen: string[] = [];
    const evicted: string[] = [];
    history.subscribe((record) => seen.push(record.id));
    history.onEvict((record) => evicted.push(record.id));
    history.put(request("r1"));
    history.put(request("r2"));
    history.put(request("r1", 422));
    expect(history.records().map((record) => [record.id, (record as RequestRecord).status])).toEqual([
      ["r1", 422],
      ["r2", 201],
    ]);
    history.put(request("r3"));
    expect(history.records().map((record) => record.id)).toEqual(["r2", "r3"]);
    expect(evicted).toEqual(["r1"]);
    expect(seen).toEqual(["r1", "r2", "r1", "r3"]);
    expect(history.get("r1")).toBeUndefined();
  });
});
