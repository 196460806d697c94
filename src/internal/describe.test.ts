import { describe, expect, it } from "vitest";
import { describeFound, listAlternatives, pathLabel, quote, withArticle } from "./describe.js";

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
    expect(label).toContain("(46 more)");
  });

  it("keeps labels short whatever the keys", () => {
    const key = "k".repeat(1_000_000);
    expect(pathLabel(["content", key])).toBe(`content["${"k".repeat(40)}…"]`);
    expect(pathLabel(Array.from({ length: 1000 }, () => key)).length).toBeLessThan(400);
  });

  it.each([
    ["plain", '"plain"'],
    ["x".repeat(100), `"${"x".repeat(40)}…"`],
    ["line\nbreak", '"line\\nbreak"'],
    ["\u001b[31mred", '"\\u001b[31mred"'],
    ["next\u0085line", '"next\\u0085line"'],
    ["sep\u2028arator", '"sep\\u2028arator"'],
    ["bidi\u202eevil", '"bidi\\u202eevil"'],
    [`${"a".repeat(39)}😀tail`, `"${"a".repeat(39)}…"`],
  ])("quotes %j as %s: short, escaped, never a split surrogate", (value, expected) => {
    expect(quote(value)).toBe(expected);
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
    expect(describeFound("x".repeat(61))).toBe(`"${"x".repeat(40)}…"`);
    expect(describeFound(12)).toBe("12");
    expect(describeFound([])).toBe("an array");
  });
});
