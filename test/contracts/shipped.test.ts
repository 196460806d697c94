/**
 * The generated contract files in dist/ (the examples, openapi.json and asyncapi.json; the JSON
 * Schema files have test/json-schema/shipped.test.ts) are byte for byte what the generator makes
 * from the current source, nothing more, and the package exports them.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contractFiles, fileText } from "../../scripts/contracts/contractFiles.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = `${root}dist/`;
const generated = await contractFiles();

/** Every file under a folder of dist/, as paths under dist/. */
const filesUnder = (folder: string): string[] =>
  readdirSync(`${dist}${folder}`, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath.slice(dist.length)}/${entry.name}`.replace(/\/\//g, "/"));

describe("the shipped contract files", () => {
  it("are exactly the files the generator makes, byte for byte: run `npm run build` when this fails", () => {
    const shipped = [
      ...filesUnder("json-schema"),
      ...filesUnder("examples"),
      "openapi.json",
      "asyncapi.json",
    ];
    expect(shipped.sort()).toEqual([...generated.keys()].sort());
    const stale = [...generated]
      .filter(([path, value]) => readFileSync(`${dist}${path}`, "utf8") !== fileText(value))
      .map(([path]) => path);
    expect(stale).toEqual([]);
  });

  it("resolve through the package exports, for require and for import", () => {
    const require = createRequire(import.meta.url);
    for (const subpath of [
      "openapi.json",
      "asyncapi.json",
      "examples/events/s.timer--cancelled.json",
      "examples/webhooks/s.room.close.json",
    ])
      expect(require.resolve(`messaging-events/${subpath}`)).toBe(`${dist}${subpath}`);
    const output = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        [
          'import openapi from "messaging-events/openapi.json" with { type: "json" };',
          'import asyncapi from "messaging-events/asyncapi.json" with { type: "json" };',
          'import timer from "messaging-events/examples/events/s.timer.json" with { type: "json" };',
          "console.log(openapi.openapi, asyncapi.asyncapi, timer.content.status);",
        ].join("\n"),
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(output.trim()).toBe("3.1.0 3.0.0 RUNNING");
  });

  it("carry the package's version", () => {
    const { version } = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { version: string };
    expect((generated.get("openapi.json") as { info: { version: string } }).info.version).toBe(version);
    expect((generated.get("asyncapi.json") as { info: { version: string } }).info.version).toBe(version);
  });
});
