import { describe, expect, it } from "vitest";
import { messageMediaContent } from "./content/messageMediaContent.js";
import { messageTextContent } from "./content/messageTextContent.js";
import { presenceContent } from "./content/presenceContent.js";
import { EventValidationError } from "./EventValidationError.js";
import { parseContent, safeParseContent } from "./safeParseContent.js";
import { safeParseEventContent } from "./safeParseEventContent.js";

describe("one schema, the library's messages", () => {
  it.each([
    [messageTextContent, { body: 5 }, "content.body must be a string, not a number"],
    [
      messageMediaContent,
      { mediaId: "m", label: "a", body: "b" },
      "content must have exactly one of label or body, not both",
    ],
    [
      presenceContent,
      { status: "BUSY" },
      'content.status must be one of "OFFLINE", "INVISIBLE", "INACTIVE", "AWAY" or "ONLINE", not "BUSY"',
    ],
  ] as const)(
    "%#: the same issues as safeParseEventContent, not Zod's bare ones",
    (schema, content, message) => {
      const result = safeParseContent(schema, content);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(message);
      expect(schema.safeParse(content).error?.issues[0]?.message).not.toBe(message);
    },
  );

  it("agrees with safeParseEventContent on data, codes and pointers", () => {
    const content = { body: "x", format: "y".repeat(101), extra: undefined };
    const one = safeParseContent(messageTextContent, content);
    const all = safeParseEventContent("s.message.text", content);
    expect(one.error?.issues).toEqual(all.error?.issues);
    expect(one.error?.code).toBe("ERR_INVALID_EVENT_CONTENT");
    expect(safeParseContent(messageTextContent, { body: "ok" }).data).toEqual({ body: "ok" });
    expect(() => parseContent(presenceContent, {})).toThrow(EventValidationError);
    expect(parseContent(presenceContent, { status: "AWAY" }).status).toBe("AWAY");
  });
});

describe("everything wrong is reported at once where the schema can", () => {
  it("a boolean action with one wrong option reports the count and the value", () => {
    const result = safeParseEventContent("s.message.action", {
      type: "boolean",
      body: "OK?",
      writeable: [],
      options: [{ label: "Yes", value: "yes" }],
    });
    expect(result.error?.issues.map((issue) => [issue.pointer, issue.message])).toEqual([
      ["/content/writeable", "content.writeable must have at least 1 entry, not 0"],
      ["/content/options", "content.options must have exactly 2 entries, not 1"],
      ["/content/options/0/value", 'content.options[0].value must be "true" or "false", not "yes"'],
    ]);
  });

  it("three options, one of them wrong: both problems", () => {
    const result = safeParseEventContent("s.message.action", {
      type: "boolean",
      body: "OK?",
      writeable: ["a"],
      options: [
        { label: "Yes", value: "true" },
        { label: "No", value: "false" },
        { label: 1, value: "false" },
      ],
    });
    expect(result.error?.issues.map((issue) => issue.pointer)).toEqual([
      "/content/options",
      "/content/options/2/label",
    ]);
  });
});
