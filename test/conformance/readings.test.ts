/**
 * The readings of what the service's description leaves open about event content (docs/readings.md),
 * one block each, in the words a user sees. The conformance table holds the exhaustive rows; rows
 * tagged with a reading are counted here, and every tag names a heading of docs/readings.md.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventScope, eventTypes, parseEventContent, safeParseEventContent } from "../../src/events/index.js";
import { conformanceCases } from "./cases.js";

const firstIssue = (type: string, content: unknown) => safeParseEventContent(type, content).error?.issues[0];

const readings = readFileSync(new URL("../../docs/readings.md", import.meta.url), "utf8");
const anchors = new Set(
  [...readings.matchAll(/^#+ (.+)$/gm)].map((match) =>
    match[1]!
      .toLowerCase()
      .replace(/[^\w\- ]/g, "")
      .replace(/ /g, "-"),
  ),
);

describe("the readings on event content", () => {
  it("every reading tag names a heading of docs/readings.md, and each content reading has rows", () => {
    const tags = new Set(conformanceCases.flatMap((row) => (row.reading ? [row.reading] : [])));
    for (const tag of tags) expect(anchors.has(tag), tag).toBe(true);
    for (const tag of [
      "no-additional-properties",
      "types-without-constraints",
      "annotations-and-preconditions",
      "lengths-count-code-points",
      "media-messages",
      "date-times",
      "boolean-actions",
      "invocation-values",
    ]) {
      expect(conformanceCases.filter((row) => row.reading === tag).length, tag).toBeGreaterThan(2);
    }
  });

  it("the package is called messaging-events", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      name: string;
    };
    expect(pkg.name).toBe("messaging-events");
  });

  it("objects are strict at every depth, except the three that allow additional properties", () => {
    expect(
      firstIssue("s.message.action", {
        type: "link",
        body: "b",
        writeable: ["a"],
        options: [{ value: "v", label: "l", icon: "x" }],
      }),
    ).toMatchObject({
      code: "unknown_property",
      pointer: "/content/options/0/icon",
      message: "content.options[0].icon is not allowed here (unknown property)",
    });
    for (const [type, content] of [
      ["s.message.text", { body: "x" }],
      ["s.message.media", { mediaId: "m", label: "l" }],
      ["s.message.preview", { url: "https://example.com" }],
    ] as const) {
      const extra = { ...content, "x-trace": { id: 7, tags: ["a"] } };
      expect(parseEventContent(type, extra)).toEqual(extra);
      // Additional members are kept, but they must still be JSON.
      expect(firstIssue(type, { ...content, when: new Date(0) })).toMatchObject({
        code: "not_json",
        pointer: "/content/when",
      });
      expect(firstIssue(type, { ...content, n: Number.NaN })).toMatchObject({
        code: "not_json",
        pointer: "/content/n",
      });
    }
  });

  it("the empty-schema types take any JSON value; the no-property types only {}", () => {
    for (const type of ["s.delete", "s.form.submission", "s.support.open"] as const) {
      for (const content of [{}, [], "x", 0, true, null, { a: [1] }])
        expect(safeParseEventContent(type, content).success).toBe(true);
      expect(firstIssue(type, undefined)).toMatchObject({
        code: "required",
        message: "content is required: expected any JSON value",
      });
    }
    for (const type of [
      "s.receipt",
      "s.room.close",
      "s.room.typing",
      "s.message.preview.track",
      "s.support.inactive",
    ] as const) {
      expect(safeParseEventContent(type, {}).success).toBe(true);
      expect(safeParseEventContent(type, []).success).toBe(false);
      expect(safeParseEventContent(type, null).success).toBe(false);
      expect(safeParseEventContent(type, { a: 1 }).success).toBe(false);
    }
  });

  it("annotations and preconditions take any JSON object, not null, not an array", () => {
    expect(
      safeParseEventContent("s.message.text", { body: "x", annotations: { any: { json: [1, null] } } })
        .success,
    ).toBe(true);
    expect(firstIssue("s.message.text", { body: "x", annotations: null })?.message).toBe(
      "content.annotations must be an object, not null",
    );
    expect(firstIssue("s.support.request", { liveChatId: "c", preconditions: [] })?.message).toBe(
      "content.preconditions must be an object, not an array",
    );
  });

  it("lengths count Unicode code points: 60 emoji fit in a 100-character format", () => {
    expect(safeParseEventContent("s.message.text", { body: "x", format: "😀".repeat(60) }).success).toBe(
      true,
    );
    expect(safeParseEventContent("s.message.text", { body: "x", format: "😀".repeat(100) }).success).toBe(
      true,
    );
    expect(firstIssue("s.message.text", { body: "x", format: "😀".repeat(101) })?.message).toBe(
      "content.format must be at most 100 characters long, not 101",
    );
  });

  it("the media rule is an exclusive choice, and the error says so in words", () => {
    expect(firstIssue("s.message.media", { mediaId: "m", label: "l", body: "b" })).toEqual({
      code: "exactly_one_of",
      path: ["content"],
      pointer: "/content",
      message: "content must have exactly one of label or body, not both",
      params: { keys: ["label", "body"], present: 2 },
    });
    expect(firstIssue("s.message.media", { mediaId: "m" })?.message).toBe(
      "content must have exactly one of label or body, it has neither",
    );
  });

  it("date-times need an offset and a real calendar day", () => {
    expect(
      safeParseEventContent("s.timer", { status: "RUNNING", expires: "2026-11-22T18:00:00.5+05:30" }).success,
    ).toBe(true);
    for (const expires of ["2026-11-22", "2026-11-22T18:00:00", "2026-02-30T18:00:00Z"]) {
      expect(firstIssue("s.timer", { status: "RUNNING", expires })).toMatchObject({
        code: "invalid_format",
        message: `content.expires must be an RFC 3339 date-time with an offset, such as "2026-11-22T18:00:00Z", not "${expires}"`,
      });
    }
  });

  it('8: boolean actions need exactly two options, one "true" and one "false", in either order', () => {
    const action = (options: unknown) => ({ type: "boolean", body: "b", writeable: ["a"], options });
    expect(
      safeParseEventContent(
        "s.message.action",
        action([
          { label: "N", value: "false" },
          { label: "Y", value: "true" },
        ]),
      ).success,
    ).toBe(true);
    expect(
      firstIssue(
        "s.message.action",
        action([
          { label: "Y", value: "true" },
          { label: "S", value: "true" },
        ]),
      )?.message,
    ).toBe(
      'content.options[1].value must be "false": a boolean action needs one option with value "true" and one with value "false"',
    );
  });

  it("an invocation value is a string, a finite number or an array of strings", () => {
    for (const value of ["", "x", 0, -1.5, 1e300, [], ["a", "b"]]) {
      expect(
        safeParseEventContent("s.message.action.invocation", { value }).success,
        JSON.stringify(value),
      ).toBe(true);
    }
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, true, null, {}]) {
      expect(firstIssue("s.message.action.invocation", { value })).toMatchObject({
        code: "no_matching_variant",
        pointer: "/content/value",
      });
    }
    expect(firstIssue("s.message.action.invocation", { value: Number.POSITIVE_INFINITY })?.message).toBe(
      "content.value must be a string, a finite number or an array, not Infinity",
    );
  });

  it("an unknown event type is a failure with its own code, never a TypeError", () => {
    for (const type of ["s.message.delete", "", "S.MESSAGE.TEXT", 42, null, undefined, {}, Symbol("t")]) {
      const result = safeParseEventContent(type, {});
      expect(result.error?.code).toBe("ERR_UNKNOWN_EVENT_TYPE");
      expect(result.error?.issues[0]).toMatchObject({ code: "unknown_event_type", pointer: "/type" });
    }
    expect(() => parseEventContent("s.nope", {})).toThrow(
      /Unknown event type: type "s\.nope" is not a known event type/,
    );
    expect(() => eventScope("s.nope" as never)).toThrow(
      expect.objectContaining({ code: "ERR_UNKNOWN_EVENT_TYPE" }),
    );
    expect(eventTypes.filter((type) => eventScope(type) === "Global")).toEqual(["s.change", "s.presence"]);
  });
});
