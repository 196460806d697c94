import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toJsonPointer } from "./toJsonPointer.js";

/** RFC 6901 section 4, independently: split on "/", then unescape ~1 before ~0. */
function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

describe("toJsonPointer", () => {
  it.each([
    [[], ""],
    [["content"], "/content"],
    [["content", "options", 0, "value"], "/content/options/0/value"],
    [["a/b", "m~n", ""], "/a~1b/m~0n/"],
    [["~1"], "/~01"],
  ])("turns %j into %j", (path, pointer) => {
    expect(toJsonPointer(path)).toBe(pointer);
  });

  it("prefixes a pointer into an enclosing document", () => {
    expect(toJsonPointer(["content", "body"], "/data/attributes")).toBe("/data/attributes/content/body");
  });

  it("round-trips any path through an RFC 6901 parser", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.nat())), (path) => {
        expect(parsePointer(toJsonPointer(path))).toEqual(path.map(String));
      }),
      { numRuns: 2000 },
    );
  });
});
