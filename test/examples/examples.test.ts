/** The example events of examples/events/ (used by npm run demo): every type, valid and invalid, verdicts as their folder says. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventTypes, safeParseEvent } from "../../src/events/index.js";
import { compileShippedSchemas } from "../support/ajv.js";

const dir = new URL("../../examples/events/", import.meta.url);
const load = (folder: "valid" | "invalid") =>
  readdirSync(new URL(`${folder}/`, dir))
    .filter((file) => file.endsWith(".json"))
    .map((file) => ({
      file,
      event: JSON.parse(readFileSync(new URL(`${folder}/${file}`, dir), "utf8")) as { type?: unknown },
    }));

const valid = load("valid");
const invalid = load("invalid");
const ajv = compileShippedSchemas();

describe("example events", () => {
  it("cover every event type, valid and invalid", () => {
    for (const type of eventTypes) {
      expect(
        valid.some(({ event }) => event.type === type),
        `valid ${type}`,
      ).toBe(true);
      expect(
        invalid.some(({ event }) => event.type === type),
        `invalid ${type}`,
      ).toBe(true);
    }
  });

  it.each(valid.map(({ file, event }) => [file, event] as const))(
    "%s is valid (and Ajv agrees)",
    (_file, event) => {
      expect(safeParseEvent(event).error?.message).toBeUndefined();
      expect(ajv.event(event)).toBe(true);
    },
  );

  it.each(invalid.map(({ file, event }) => [file, event] as const))(
    "%s is invalid (and Ajv agrees)",
    (_file, event) => {
      expect(safeParseEvent(event).success).toBe(false);
      expect(ajv.event(event)).toBe(false);
    },
  );
});
