import { describe, expect, it } from "vitest";
import { describeFound, listAlternatives, pathLabel, withArticle } from "./describe.js";

describe("message helpers", () => {
  it.each([
    [["content", "options", 0, "value"], "content.options[0].value"],
    [["content", "x-y"], 'content["x-y"]'],
    [[], "the value"],
    [["content", "__proto__"], "content.__proto__"],
  ])("labels %j as %s", (path, label) => {
    expect(pathLabel(path)).toBe(label);
  });

  it("shortens very deep paths but keeps both ends", () => {
    const label = pathLabel(["content", ...Array.from({ length: 50 }, () => "a"), "end"]);
    expect(label.startsWith("content.a")).toBe(true);
    expect(label.endsWith("a.end")).toBe(true);
    expect(label).toContain("(40 more)");
  });

  it("writes alternatives and articles in English", () => {
    expect(listAlternatives(['"a"'])).toBe('"a"');
    expect(listAlternatives(['"a"', '"b"'])).toBe('"a" or "b"');
    expect(listAlternatives(['"a"', '"b"', '"c"'])).toBe('one of "a", "b" or "c"');
    expect(withArticle("object")).toBe("an object");
    expect(withArticle("string")).toBe("a string");
    expect(withArticle("null")).toBe("null");
    expect(withArticle("-Infinity")).toBe("-Infinity");
    expect(describeFound("BUSY")).toBe('"BUSY"');
    expect(describeFound("x".repeat(61))).toBe("a longer string");
    expect(describeFound(12)).toBe("12");
    expect(describeFound([])).toBe("an array");
  });
});
