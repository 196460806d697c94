import { describe, expect, it } from "vitest";
import { createInspectorHistory, recordBytes } from "./createInspectorHistory.js";
import type { InspectorLimits, InspectorRecord, RequestRecord } from "./InspectorRecord.js";

const request = (id: string, status = 201, document = ""): RequestRecord => ({
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
  request: { text: document, bytes: 0, cut: false },
  response: { text: "", bytes: 0, cut: false },
  errors: [],
  deliveries: [],
});

const limits: InspectorLimits = {
  historySize: 1000,
  historyBytes: 16 * 1024 * 1024,
  bodyBytes: 16 * 1024,
  attempts: 50,
};

const encoder = new TextEncoder();
/** What the history counts, computed apart: the UTF-8 bytes of a record's JSON. */
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).byteLength;
const ids = (records: readonly InspectorRecord[]) => records.map((record) => record.id);

describe("createInspectorHistory", () => {
  it("keeps the newest records, replaces a record where it stands, and tells subscribers", () => {
    const history = createInspectorHistory({ ...limits, historySize: 2 });
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

  it("counts a record as the UTF-8 bytes of its JSON, escapes and all", () => {
    const record = request("r1", 201, 'é😀"\u0001\n');
    // é is 2 bytes, 😀 4; the quote, the control character and the line break are escaped in JSON
    // (\", \u0001, \n: 2, 6 and 2 bytes).
    expect(recordBytes(record)).toBe(jsonBytes(record));
    expect(recordBytes(record) - recordBytes(request("r1"))).toBe(2 + 4 + 2 + 6 + 2);
    const history = createInspectorHistory(limits);
    history.put(record);
    history.put(request("r2"));
    expect(history.bytes()).toBe(jsonBytes(record) + jsonBytes(request("r2")));
    history.put(request("r1"));
    expect(history.bytes()).toBe(2 * jsonBytes(request("r1")));
  });

  it("keeps many large records within the byte limit, the newest, whatever the count limit", () => {
    const historyBytes = 100_000;
    const history = createInspectorHistory({ ...limits, historyBytes });
    const evicted: string[] = [];
    history.onEvict((record) => evicted.push(record.id));
    for (let index = 1; index <= 100; index++) {
      history.put(request(`r${index}`, 201, "x".repeat(9_000)));
      expect(history.bytes()).toBeLessThanOrEqual(historyBytes);
      expect(history.bytes()).toBe(history.records().reduce((sum, record) => sum + jsonBytes(record), 0));
    }
    // About 9 KiB each: 10 fit in 100,000 bytes, the newest.
    const kept = ids(history.records());
    expect(kept).toEqual(Array.from({ length: 10 }, (_, index) => `r${91 + index}`));
    expect(history.size()).toBe(10);
    expect(evicted).toEqual(Array.from({ length: 90 }, (_, index) => `r${index + 1}`));
    expect(history.get("r90")).toBeUndefined();
    expect(history.get("r100")).toBeDefined();
  });

  it("lets the oldest go first, by bytes exactly at the limit", () => {
    const one = jsonBytes(request("r1", 201, "x".repeat(1000)));
    const history = createInspectorHistory({ ...limits, historyBytes: 3 * one });
    for (const id of ["r1", "r2", "r3"]) history.put(request(id, 201, "x".repeat(1000)));
    // Exactly at the limit: all kept.
    expect(ids(history.records())).toEqual(["r1", "r2", "r3"]);
    expect(history.bytes()).toBe(3 * one);
    // One byte more: the oldest goes, and only it.
    history.put(request("r4"));
    expect(ids(history.records())).toEqual(["r2", "r3", "r4"]);
    // A large record makes room by letting several of the oldest go.
    history.put(request("r5", 201, "x".repeat(2500)));
    expect(ids(history.records())).toEqual(["r4", "r5"]);
  });

  it("keeps a replaced record that grew, even when it is the oldest, and the newest even alone over the limit", () => {
    const small = jsonBytes(request("r1"));
    const history = createInspectorHistory({ ...limits, historyBytes: 3 * small });
    const evicted: string[] = [];
    history.onEvict((record) => evicted.push(record.id));
    for (const id of ["r1", "r2", "r3"]) history.put(request(id));
    history.put(request("r1", 201, "x".repeat(small - 100)));
    expect(ids(history.records())).toEqual(["r1", "r3"]);
    expect(evicted).toEqual(["r2"]);
    history.put(request("r4", 201, "x".repeat(4 * small)));
    expect(ids(history.records())).toEqual(["r4"]);
    expect(history.bytes()).toBeGreaterThan(3 * small);
    expect(evicted).toEqual(["r2", "r1", "r3"]);
  });

  it("keeps the count limit with bytes to spare", () => {
    const history = createInspectorHistory({ ...limits, historySize: 3 });
    for (let index = 1; index <= 5; index++) history.put(request(`r${index}`));
    expect(ids(history.records())).toEqual(["r3", "r4", "r5"]);
  });

  it("bounds the snapshot a page receives by the byte limit", () => {
    const historyBytes = 64 * 1024;
    const history = createInspectorHistory({ ...limits, historyBytes });
    // Documents of 16 KiB that escape to six times as much in JSON (control characters).
    for (let index = 1; index <= 40; index++)
      history.put(request(`r${index}`, 201, "\u0001".repeat(16 * 1024)));
    for (let index = 41; index <= 200; index++) history.put(request(`r${index}`, 201, "é".repeat(8 * 1024)));
    const snapshot = { type: "snapshot", limits: history.limits, records: history.records() };
    // The records' bytes, a comma between two, and the envelope with the limits.
    const envelope = jsonBytes({ ...snapshot, records: [] });
    expect(jsonBytes(snapshot)).toBeLessThanOrEqual(historyBytes + history.size() - 1 + envelope);
    expect(jsonBytes(snapshot)).toBe(history.bytes() + history.size() - 1 + envelope);
    expect(history.get("r200")).toBeDefined();
  });
});
