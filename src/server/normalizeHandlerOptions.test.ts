import { describe, expect, it } from "vitest";
import { AttributeNameError } from "../jsonapi/eventAttributeNames.js";
import { createMemoryIdempotencyStore } from "./createMemoryIdempotencyStore.js";
import type { EventsHandlerOptions } from "./EventsHandlerOptions.js";
import { HANDLER_DEFAULTS, normalizeHandlerOptions } from "./normalizeHandlerOptions.js";

const required = { authorize: () => "p", create: () => ({ id: "e1" }) };

describe("normalizeHandlerOptions", () => {
  it("fills in every default, with a memory store the handler owns", async () => {
    const options = normalizeHandlerOptions(required);
    expect(options).toMatchObject({
      maxBodyBytes: 1_048_576,
      retentionMs: 86_400_000,
      leaseMs: 10_000,
      storeTimeoutMs: 2_000,
      bodyTimeoutMs: 30_000,
      createTimeoutMs: 10_000,
      authenticationScheme: "Bearer",
      cors: undefined,
      path: "/events",
      location: undefined,
      ownsStore: true,
      attributeNames: { eventType: "eventType", content: "content" },
    });
    expect(HANDLER_DEFAULTS.maxBodyBytes).toBe(1024 * 1024);
    await options.store.close();
  });

  it("keeps what is given, and never owns a store passed in", async () => {
    const store = createMemoryIdempotencyStore();
    const location = (id: string) => `/events/${id}`;
    const options = normalizeHandlerOptions({
      ...required,
      store,
      location,
      maxBodyBytes: 10,
      retentionMs: 20,
      leaseMs: 30,
      storeTimeoutMs: 40,
      path: "/v1/events",
      attributeNames: { eventType: "kind", content: "payload" },
    });
    expect(options).toMatchObject({
      store,
      location,
      ownsStore: false,
      maxBodyBytes: 10,
      retentionMs: 20,
      leaseMs: 30,
      storeTimeoutMs: 40,
      path: "/v1/events",
      attributeNames: { eventType: "kind", content: "payload" },
    });
    await store.close();
  });

  it.each([
    ["no options", undefined, /options/],
    ["no authorize", { create: required.create }, /authorize/],
    ["no create", { authorize: required.authorize }, /create/],
    ["a location that is not a function", { ...required, location: "/events" }, /location/],
    ["a relative path", { ...required, path: "events" }, /path/],
    ["a path with a query", { ...required, path: "/events?x=1" }, /path/],
    ["a store without methods", { ...required, store: {} }, /store/],
    ["maxBodyBytes 0", { ...required, maxBodyBytes: 0 }, /maxBodyBytes/],
    ["a fractional retentionMs", { ...required, retentionMs: 1.5 }, /retentionMs/],
    ["leaseMs past what a timer can wait", { ...required, leaseMs: 2 ** 31 }, /leaseMs/],
    ["storeTimeoutMs as a string", { ...required, storeTimeoutMs: "100" }, /storeTimeoutMs/],
    ["bodyTimeoutMs 0", { ...required, bodyTimeoutMs: 0 }, /bodyTimeoutMs/],
    [
      "createTimeoutMs past what a timer can wait",
      { ...required, createTimeoutMs: 2 ** 31 },
      /createTimeoutMs/,
    ],
    [
      "an authenticationScheme with a line break",
      { ...required, authenticationScheme: "Bearer\r\nx: y" },
      /authenticationScheme/,
    ],
    ["cors without origins", { ...required, cors: {} }, /cors\.origins/],
    [
      "cors.allowCredentials as a string",
      { ...required, cors: { origins: ["*"], allowCredentials: "yes" } },
      /allowCredentials/,
    ],
    ["cors.maxAgeMs 0", { ...required, cors: { origins: ["*"], maxAgeMs: 0 } }, /maxAgeMs/],
  ])("refuses %s with a TypeError naming it", (_name, options, message) => {
    expect(() => normalizeHandlerOptions(options as unknown as EventsHandlerOptions)).toThrow(TypeError);
    expect(() => normalizeHandlerOptions(options as unknown as EventsHandlerOptions)).toThrow(message);
  });

  it("turns cors into a policy: a list, * for any origin, or a function (one that throws allows nothing)", () => {
    const listed = normalizeHandlerOptions({ ...required, cors: { origins: ["https://a.example"] } }).cors!;
    expect([
      listed.allows("https://a.example"),
      listed.allows("https://b.example"),
      listed.anyOrigin,
    ]).toEqual([true, false, false]);
    expect(listed.maxAgeHeader).toBe("600");
    const any = normalizeHandlerOptions({ ...required, cors: { origins: ["*"], maxAgeMs: 1_999 } }).cors!;
    expect([any.anyOrigin, any.allows("https://b.example"), any.maxAgeHeader]).toEqual([true, true, "1"]);
    const throwing = normalizeHandlerOptions({
      ...required,
      cors: {
        origins: () => {
          throw new Error("boom");
        },
      },
    }).cors!;
    expect(throwing.allows("https://a.example")).toBe(false);
  });

  it("refuses attribute names JSON:API forbids", () => {
    expect(() =>
      normalizeHandlerOptions({ ...required, attributeNames: { eventType: "type", content: "content" } }),
    ).toThrow(AttributeNameError);
  });
});
