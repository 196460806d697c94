import { describe, expect, it } from "vitest";
import {
  EventValidationError,
  eventContentSchemas,
  eventSchema,
  eventTypes,
  parseEventContent,
  safeParseEvent,
  safeParseEventContent,
  toJsonPointer,
} from "../../src/events/index.js";
import { conformanceCases } from "./cases.js";
import { anyJsonTypes } from "./specTables.js";

const title = (row: (typeof conformanceCases)[number]) =>
  `${row.valid ? "accepts" : "rejects"} ${row.name}${row.reading ? ` (${row.reading})` : ""}`;

describe("conformance table", () => {
  it("covers every event type with valid rows, and every type that has a shape with invalid rows", () => {
    for (const type of eventTypes) {
      const rows = conformanceCases.filter((row) => row.type === type);
      expect(
        rows.some((row) => row.valid),
        type,
      ).toBe(true);
      if (!anyJsonTypes.includes(type))
        expect(
          rows.some((row) => !row.valid),
          type,
        ).toBe(true);
      const names = rows.map((row) => row.name);
      expect(new Set(names).size, `${type}: duplicate row names`).toBe(names.length);
    }
  });

  describe.each(eventTypes)("%s", (type) => {
    const rows = conformanceCases.filter((row) => row.type === type);
    it.each(rows.map((row) => [title(row), row] as const))("%s", (_title, row) => {
      const result = safeParseEventContent(type, row.content);
      expect(result.success).toBe(row.valid);
      // Every entry point gives the same verdict.
      expect(eventContentSchemas[type].safeParse(row.content).success).toBe(row.valid);
      expect(eventSchema.safeParse({ type, content: row.content }).success).toBe(row.valid);
      expect(safeParseEvent({ type, content: row.content }).success).toBe(row.valid);
      if (result.success) {
        // Valid JSON content comes back as it went in.
        expect(result.data).toEqual(row.content);
        expect(parseEventContent(type, row.content)).toEqual(row.content);
        return;
      }
      const { error } = result;
      expect(error).toBeInstanceOf(EventValidationError);
      expect(error.code).toBe("ERR_INVALID_EVENT_CONTENT");
      expect(error.eventType).toBe(type);
      expect(error.issues.map(({ code, pointer }) => ({ code, pointer }))).toContainEqual(row.expect);
      for (const issue of error.issues) {
        expect(issue.pointer).toBe(toJsonPointer(issue.path));
        expect(issue.path[0]).toBe("content");
        expect(error.message).toContain(issue.message);
      }
      expect(() => parseEventContent(type, row.content)).toThrow(EventValidationError);
      const eventResult = safeParseEvent({ type, content: row.content });
      expect(eventResult.error?.issues).toEqual(error.issues);
    });
  });
});
