/** The built package works from ESM `import` and CommonJS `require`, through its exports, on this Node. */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = (args: string[]): string =>
  execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();

const check = (load: (specifier: string) => string) => `
const events = ${load("messaging-events/events")};
const all = ${load("messaging-events")};
const ok = events.safeParseEventContent("s.timer", { status: "RUNNING", expires: "2026-11-22T18:00:00Z" });
const bad = all.safeParseEventContent("s.form", { formId: "" });
console.log(JSON.stringify([events.eventTypes.length, ok.success, bad.error.code, bad.error.issues[0].pointer, bad.error instanceof all.EventValidationError, events.parseEventContent === all.parseEventContent]));
`;

describe("module systems", () => {
  it("ESM import of every subpath", () => {
    const source = check.call(
      null,
      ((specifier: string) => `await import(${JSON.stringify(specifier)})`) as never,
    );
    expect(JSON.parse(run(["--input-type=module", "-e", source]))).toEqual([
      32,
      true,
      "ERR_INVALID_EVENT_CONTENT",
      "/content/formId",
      true,
      true,
    ]);
  });

  it("CommonJS require of every subpath", () => {
    const source = check.call(
      null,
      ((specifier: string) => `require(${JSON.stringify(specifier)})`) as never,
    );
    expect(JSON.parse(run(["--input-type=commonjs", "-e", source]))).toEqual([
      32,
      true,
      "ERR_INVALID_EVENT_CONTENT",
      "/content/formId",
      true,
      true,
    ]);
  });
});
