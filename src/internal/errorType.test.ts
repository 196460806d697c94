import { describe, expect, it } from "vitest";
import { errorTypeOf } from "./errorType.js";
import { TimedOut } from "./timeBoxed.js";

describe("errorTypeOf", () => {
  it("names an error by its code, its cause's code, a time-out, or its class; never its message", () => {
    expect(errorTypeOf(Object.assign(new Error("x"), { code: "ERR_EVENTS_API" }))).toBe("ERR_EVENTS_API");
    expect(errorTypeOf(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }))).toBe(
      "ECONNREFUSED",
    );
    expect(errorTypeOf(new DOMException("timed out", "TimeoutError"))).toBe("timeout");
    expect(errorTypeOf(new TimedOut(10))).toBe("timeout");
    expect(errorTypeOf(new DOMException("aborted", "AbortError"))).toBe("AbortError");
    expect(errorTypeOf(new RangeError("secret in a message"))).toBe("RangeError");
    expect(errorTypeOf(Object.assign(new Error("x"), { code: "has spaces and a token abc" }))).toBe("Error");
    for (const odd of [undefined, null, "a string", 42, { name: "not a name!" }])
      expect(errorTypeOf(odd)).toBe("_OTHER");
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
      },
    );
    expect(errorTypeOf(hostile)).toBe("_OTHER");
  });
});
