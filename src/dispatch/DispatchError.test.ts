import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DispatchError, isDispatchError } from "./DispatchError.js";

describe("isDispatchError", () => {
  it("recognises the class, a copy from another realm by its brand, and nothing else; never throws", () => {
    const error = new DispatchError("ERR_DISPATCH_CLOSED", "closed", { cause: new Error("inner") });
    expect(isDispatchError(error)).toBe(true);
    expect(error.cause).toBeInstanceOf(Error);
    expect(isDispatchError({ [Symbol.for("messaging-events.DispatchError")]: true })).toBe(true);
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(isDispatchError(revoked.proxy)).toBe(false);
    expect(
      isDispatchError(
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("trap");
            },
            getPrototypeOf: () => {
              throw new Error("trap");
            },
          },
        ),
      ),
    ).toBe(false);
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(isDispatchError(value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
