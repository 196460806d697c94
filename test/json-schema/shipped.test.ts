/** The JSON Schema files in the package are complete, current, valid 2020-12, and importable. */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import ajv2020Module from "ajv/dist/2020.js";
import ajvFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { jsonSchemaFiles } from "../../scripts/jsonSchema.js";
import { eventTypes } from "../../src/events/index.js";
import { webhookEventTypes } from "../../src/webhooks/index.js";
import { createAjv, jsonSchemaDir, readShippedSchema } from "../support/ajv.js";

const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;
const root = fileURLToPath(new URL("../../", import.meta.url));

describe("shipped JSON Schema", () => {
  it("has one file per event type and the event bundle, one per webhook type and any payload, and the three documents", () => {
    const files = readdirSync(jsonSchemaDir).sort();
    expect(files).toEqual(
      [
        ...eventTypes.map((type) => `${type}.json`),
        "event.json",
        ...webhookEventTypes.map((type) => `webhook-payload.${type}.json`),
        "webhook-payload.json",
        "event-document.json",
        "event-resource-document.json",
        "error-document.json",
      ].sort(),
    );
  });

  it("is what the generator makes from the current schemas", () => {
    for (const [name, schema] of jsonSchemaFiles()) expect(readShippedSchema(name), name).toEqual(schema);
  });

  it("is valid draft 2020-12 with ids, titles and descriptions", () => {
    const ajv = createAjv();
    for (const type of eventTypes) {
      const schema = readShippedSchema(`${type}.json`);
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(schema.$id).toBe(`urn:messaging-events:json-schema:${type}`);
      expect(schema.title).toBe(`${type} content`);
      expect(String(schema.description)).toMatch(/Scope: (Global|Room)\.$/);
      expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    }
    const bundle = readShippedSchema("event.json") as {
      properties: { type: { enum: unknown[] } };
      allOf: unknown[];
      $defs: Record<string, unknown>;
    };
    expect(ajv.validateSchema(bundle), JSON.stringify(ajv.errors)).toBe(true);
    expect(bundle.properties.type.enum).toEqual([...eventTypes]);
    expect(bundle.allOf).toHaveLength(32);
    expect(Object.keys(bundle.$defs)).toEqual([...eventTypes]);
    for (const name of readdirSync(jsonSchemaDir)) {
      const schema = readShippedSchema(name);
      expect(schema.$id, name).toBe(`urn:messaging-events:json-schema:${name.replace(/\.json$/, "")}`);
      expect(typeof schema.title, name).toBe("string");
      expect(typeof schema.description, name).toBe("string");
    }
    const payloads = readShippedSchema("webhook-payload.json") as { $defs: Record<string, unknown> };
    expect(Object.keys(payloads.$defs)).toEqual([...webhookEventTypes]);
  });

  it("compiles, every file, in Ajv's strict mode with no strict check turned off", () => {
    for (const name of readdirSync(jsonSchemaDir)) {
      const ajv = new Ajv2020({ strict: true });
      addFormats(ajv);
      expect(() => ajv.compile(readShippedSchema(name)), name).not.toThrow();
    }
  });

  it("resolves through the package exports, for require and for import", () => {
    const require = createRequire(import.meta.url);
    const path = require.resolve("messaging-events/json-schema/s.message.text.json");
    expect(path).toBe(fileURLToPath(new URL("s.message.text.json", jsonSchemaDir)));
    const output = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'import schema from "messaging-events/json-schema/s.timer.json" with { type: "json" }; console.log(schema.title);',
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(output.trim()).toBe("s.timer content");
  });
});
