/** The built package works from ESM `import` and CommonJS `require`, through its exports, on this Node. */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A script that loads every subpath with `load` and reports what a user would check first. */
const script = (load: (specifier: string) => string) => `
const events = ${load("messaging-events/events")};
const all = ${load("messaging-events")};
const ok = events.safeParseEventContent("s.timer", { status: "RUNNING", expires: "2026-11-22T18:00:00Z" });
const bad = all.safeParseEventContent("s.form", { formId: "" });
console.log(JSON.stringify([events.eventTypes.length, ok.success, bad.error.code, bad.error.issues[0].pointer,
  bad.error instanceof events.EventValidationError, events.parseEventContent === all.parseEventContent]));
`;

describe("module systems", () => {
  it.each([
    ["ESM import", "module", (specifier: string) => `await import(${JSON.stringify(specifier)})`],
    ["CommonJS require", "commonjs", (specifier: string) => `require(${JSON.stringify(specifier)})`],
  ])("%s of every subpath", (_name, inputType, load) => {
    const output = execFileSync(process.execPath, [`--input-type=${inputType}`, "-e", script(load)], {
      cwd: root,
      encoding: "utf8",
    });
    // Every subpath hands out the same classes and functions.
    expect(JSON.parse(output)).toEqual([
      32,
      true,
      "ERR_INVALID_EVENT_CONTENT",
      "/content/formId",
      true,
      true,
    ]);
  });
});
