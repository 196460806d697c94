import { describe, expect, it } from "vitest";
import { jsonSchemaFiles } from "../../scripts/jsonSchema.js";
import { eventTypes } from "../../src/events/index.js";
import { runCli } from "./cli.js";

const files = jsonSchemaFiles();
const text = (name: string) => `${JSON.stringify(files.get(name), null, 2)}\n`;

describe("messaging-events schema", () => {
  it("prints a type's content schema, the whole event's, and the list of types", async () => {
    const [one, whole, list, help] = await Promise.all([
      runCli(["schema", "s.message.text"]),
      runCli(["schema"]),
      runCli(["schema", "--list"]),
      runCli(["schema", "--help"]),
    ]);
    expect(one).toEqual({ code: 0, stdout: text("s.message.text.json"), stderr: "" });
    expect(whole).toEqual({ code: 0, stdout: text("event.json"), stderr: "" });
    expect(list).toEqual({ code: 0, stdout: `${eventTypes.join("\n")}\n`, stderr: "" });
    expect(help.stdout).toContain("Usage: messaging-events schema [options] [type]");
  });

  it("refuses an unknown type with status 2 and the closest type", async () => {
    const { code, stderr, stdout } = await runCli(["schema", "s.mesage.text"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("did you mean s.message.text?");
  });
});
