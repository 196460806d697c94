import { describe, expect, it } from "vitest";
import { alternatives, plural } from "./wording.js";

describe("wording", () => {
  it("lists choices with a final 'or'", () => {
    expect(alternatives(["json"])).toBe("json");
    expect(alternatives(["human", "json"])).toBe("human or json");
    expect(alternatives(["event", "document", "payload"])).toBe("event, document or payload");
  });

  it("counts in the singular for one", () => {
    expect(plural(1, "attempt")).toBe("1 attempt");
    expect(plural(4, "attempt")).toBe("4 attempts");
    expect(plural(0, "line")).toBe("0 lines");
  });
});
