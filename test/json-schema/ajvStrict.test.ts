/**
 * The JSON Schema works in Ajv's strict mode as it comes, and `event.json` reports the errors of
 * the event's own type only: the type selects the content schema, other types stay silent. So does
 * `webhook-payload.json` for the payload of its type.
 */
import type { ErrorObject } from "ajv";
import ajv2020Module from "ajv/dist/2020.js";
import ajvFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSchemaFiles } from "../../scripts/jsonSchema.js";
import { eventTypes } from "../../src/events/index.js";
import { webhookEventTypes } from "../../src/webhooks/index.js";
import { validPayload } from "../contracts/contractInputs.js";
import { compileSchemas, createAjv, readGeneratedSchema } from "../support/ajv.js";
import { mutated } from "../support/mutations.js";
import { validContent } from "../support/validContent.js";

const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;

describe("Ajv strict mode", () => {
  it.each([false, true])(
    "compiles every generated file with no strict check turned off (allErrors %s)",
    (allErrors) => {
      for (const [name, schema] of jsonSchemaFiles()) {
        const ajv = new Ajv2020({ strict: true, allErrors });
        addFormats(ajv);
        expect(() => ajv.compile(schema), name).not.toThrow();
      }
    },
  );

  it("takes all 44 files into one instance, as a server loading the folder would", () => {
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const files = jsonSchemaFiles();
    expect(files.size).toBe(44);
    for (const schema of files.values()) ajv.addSchema(schema);
    expect(
      ajv.getSchema("urn:messaging-events:json-schema:event")?.({
        type: "s.room.pin",
        content: { value: true },
      }),
    ).toBe(true);
    expect(
      ajv.getSchema("urn:messaging-events:json-schema:webhook-payload")?.({
        type: "s.room.close",
        version: 2,
        content: {},
      }),
    ).toBe(true);
  });
});

/** Ajv's errors without the schema location, which differs between a file and its copy under `$defs`. */
const located = (errors: ErrorObject[] | null | undefined, prefix = "") =>
  (errors ?? []).map(({ instancePath, keyword, params, message }) => ({
    instancePath: prefix + instancePath,
    keyword,
    params,
    message,
  }));

describe.each([false, true])("event.json selects the content schema by type (allErrors %s)", (allErrors) => {
  const ajv = compileSchemas(readGeneratedSchema, { allErrors });

  it.each(eventTypes.map((type, index) => [type, index] as const))(
    "%s: the errors of its own content schema, nothing about other types",
    (type, index) => {
      const ownBranch = new RegExp(`^#/(allOf/${index}/|\\$defs/${type.replaceAll(".", "\\.")}/)`);
      fc.assert(
        fc.property(fc.oneof(validContent[type].chain(mutated), fc.jsonValue({ maxDepth: 2 })), (content) => {
          const checkContent = ajv.content(type);
          const valid = checkContent(content);
          expect(ajv.event({ type, content })).toBe(valid);
          const errors = ajv.event.errors ?? [];
          // With allErrors, Ajv adds one line for the failed `then` of this type's branch.
          const branch = errors.filter((error) => error.keyword === "if");
          expect(branch.map((error) => error.schemaPath)).toEqual(
            allErrors && !valid ? [`#/allOf/${index}/if`] : [],
          );
          expect(located(errors.filter((error) => error.keyword !== "if"))).toEqual(
            located(checkContent.errors, "/content"),
          );
          for (const error of errors) expect(error.schemaPath).toMatch(ownBranch);
        }),
        { numRuns: 40 },
      );
    },
  );

  it.each([
    [
      "an unknown type",
      { type: "s.message.delete", content: {} },
      [{ instancePath: "/type", keyword: "enum" }],
    ],
    ["a type that is not a string", { type: 5, content: {} }, [{ instancePath: "/type", keyword: "enum" }]],
    ["no type", { content: {} }, [{ instancePath: "", keyword: "required" }]],
    ["no content", { type: "s.room.pin" }, [{ instancePath: "", keyword: "required" }]],
    [
      "an extra member",
      { type: "s.receipt", content: {}, at: 1 },
      [{ instancePath: "", keyword: "additionalProperties" }],
    ],
    ["not an object", [], [{ instancePath: "", keyword: "type" }]],
  ])("refuses %s with one error and checks no content schema", (_name, event, expected) => {
    expect(ajv.event(event)).toBe(false);
    expect(ajv.event.errors?.map(({ instancePath, keyword }) => ({ instancePath, keyword }))).toEqual(
      expected,
    );
  });

  it("names the allowed types when the type is unknown", () => {
    ajv.event({ type: "s.message.delete", content: {} });
    expect(ajv.event.errors?.[0]?.params).toEqual({ allowedValues: [...eventTypes] });
  });
});

describe.each([false, true])(
  "webhook-payload.json selects the payload schema by type (allErrors %s)",
  (allErrors) => {
    const ajv = createAjv({ allErrors });
    const any = ajv.compile(readGeneratedSchema("webhook-payload.json"));
    const own = new Map(
      webhookEventTypes.map((type) => [
        type,
        ajv.compile(readGeneratedSchema(`webhook-payload.${type}.json`)),
      ]),
    );

    it.each(webhookEventTypes.map((type, index) => [type, index] as const))(
      "%s: the verdict of its own file, and errors from its own branch only",
      (type, index) => {
        const ownBranch = new RegExp(`^#/(allOf/${index}/|\\$defs/${type.replaceAll(".", "\\.")}/)`);
        fc.assert(
          fc.property(validPayload(type).chain(mutated), (payload) => {
            const expected = own.get(type)!(payload);
            if (!isPlainObject(payload) || payload.type !== type) return;
            expect(any(payload)).toBe(expected);
            for (const error of any.errors ?? []) expect(error.schemaPath).toMatch(ownBranch);
          }),
          { numRuns: 60 },
        );
      },
    );

    it("refuses an unknown type with one error and checks no payload schema", () => {
      expect(any({ type: "s.room.pin", version: 2, content: { value: true } })).toBe(false);
      expect(any.errors?.map(({ instancePath, keyword }) => ({ instancePath, keyword }))).toEqual([
        { instancePath: "/type", keyword: "enum" },
      ]);
    });
  },
);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
