import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isEventValidationError } from "../events/EventValidationError.js";
import { buildWebhookPayload } from "./buildWebhookPayload.js";
import { isDispatchError } from "./DispatchError.js";

describe("buildWebhookPayload", () => {
  it("builds the version-2 payload from an event and its optional members, in one serialisation", () => {
    const built = buildWebhookPayload({
      event: { type: "s.room.create", content: { creatorId: "user-7" } },
      roomId: "room-42",
      recipients: [{ id: "user-8", externalId: "ext-8" }],
      preconditions: { queue: "sales" },
    });
    expect(built.type).toBe("s.room.create");
    expect(JSON.parse(built.body)).toEqual({
      type: "s.room.create",
      version: 2,
      content: { creatorId: "user-7" },
      roomId: "room-42",
      recipients: [{ id: "user-8", externalId: "ext-8" }],
      preconditions: { queue: "sales" },
    });
  });

  it.each(["s.presence", "s.timer", "s.unknown", "constructor"])(
    "refuses %s with ERR_DISPATCH_NOT_A_WEBHOOK_TYPE",
    (type) => {
      let caught: unknown;
      try {
        buildWebhookPayload({ event: { type, content: {} } });
      } catch (error) {
        caught = error;
      }
      expect(isDispatchError(caught) && caught.code).toBe("ERR_DISPATCH_NOT_A_WEBHOOK_TYPE");
    },
  );

  it("never throws anything but its two errors, whatever the input", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({ event: fc.anything() }),
          fc.record({ type: fc.string(), version: fc.anything() }),
        ),
        (input) => {
          try {
            buildWebhookPayload(input);
          } catch (error) {
            expect(isDispatchError(error) || isEventValidationError(error)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    for (const hostile of [
      revoked.proxy,
      new Proxy(
        {},
        {
          get: () => {
            throw new Error("trap");
          },
        },
      ),
    ]) {
      expect(() => buildWebhookPayload(hostile)).toThrow();
      try {
        buildWebhookPayload({ event: hostile });
      } catch (error) {
        expect(isDispatchError(error) || isEventValidationError(error)).toBe(true);
      }
    }
  });
});
