/**
 * Standard JSON Schema: `~standard.jsonSchema.input` and `.output` of every content object, of
 * `eventSchema` and of `webhookPayloadSchema` give the document the build ships (`dist/json-schema/<type>.json`,
 * `event.json`, `webhook-payload.json`), as a
 * fresh copy per call; in draft-07 the same rules in that dialect, proven by Ajv's draft-07
 * validator agreeing with `validate` on every conformance case; any other target throws.
 */
import ajvModule from "ajv";
import ajvFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { jsonSchemaFiles } from "../../scripts/jsonSchema.js";
import * as events from "../../src/events/index.js";
import { type EventType, eventContentSchemas, eventTypes } from "../../src/events/index.js";
import type { StandardSchemaWithJsonSchema } from "../../src/standard/index.js";
import * as standard from "../../src/standard/index.js";
import { conformanceCases } from "../conformance/cases.js";
import { createAjv } from "../support/ajv.js";
import { isJsonRepresentable } from "../support/nearMiss.js";

// CommonJS: from ESM, the default import is `module.exports`, whose `default` is the export.
const AjvDraft07 = ajvModule.default;
const addFormats = ajvFormatsModule.default;

type Schema = StandardSchemaWithJsonSchema<unknown, unknown>;

/** Each type's Standard Schema object, found by the name of its Zod schema. */
const objectOf = (type: EventType): Schema => {
  const name = Object.entries(events).find(([, value]) => value === eventContentSchemas[type])![0];
  return (standard as unknown as Record<string, Schema>)[name]!;
};

/** What the build writes to dist/json-schema/, by file name. */
const shipped = jsonSchemaFiles();
const file = (name: string): Record<string, unknown> => {
  const document = shipped.get(name);
  if (document === undefined) throw new Error(`the build writes no ${name}`);
  return document;
};

const documents: [string, Schema, Record<string, unknown>][] = [
  ...eventTypes.map((type): [string, Schema, Record<string, unknown>] => [
    type,
    objectOf(type),
    file(`${type}.json`),
  ]),
  ["eventSchema", standard.eventSchema as Schema, file("event.json")],
  ["webhookPayloadSchema", standard.webhookPayloadSchema as Schema, file("webhook-payload.json")],
];

/** Keywords of draft 2019-09 and 2020-12 that draft-07 lacks (`$defs` aside, which is renamed). */
const newerKeywords = [
  "prefixItems",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "minContains",
  "maxContains",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$vocabulary",
];

/** Every key of every object in a document. */
function keysOf(value: unknown, keys = new Set<string>()): Set<string> {
  if (typeof value === "object" && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      keys.add(key);
      keysOf(member, keys);
    }
  }
  return keys;
}

describe("~standard.jsonSchema", () => {
  it.each(documents)(
    "%s: input and output are the shipped document, a fresh copy each time",
    (_name, schema, shipped) => {
      const { jsonSchema } = schema["~standard"];
      expect(jsonSchema.input({ target: "draft-2020-12" })).toStrictEqual(shipped);
      expect(jsonSchema.output({ target: "draft-2020-12" })).toStrictEqual(shipped);
      // Without options (as a JavaScript caller may), draft 2020-12.
      expect(jsonSchema.input()).toStrictEqual(shipped);
      const copy = jsonSchema.output({ target: "draft-2020-12" });
      copy.title = "changed";
      expect(jsonSchema.output({ target: "draft-2020-12" }).title).toBe(shipped.title);
      expect(jsonSchema.input({ target: "draft-2020-12" })).not.toBe(
        jsonSchema.input({ target: "draft-2020-12" }),
      );
    },
  );

  it.each(documents)("%s: in draft-07, the same rules in that dialect", (name, schema, shipped) => {
    const draft07 = schema["~standard"].jsonSchema.input({ target: "draft-07" });
    expect(draft07.$schema).toBe("http://json-schema.org/draft-07/schema#");
    for (const keyword of newerKeywords)
      expect(keysOf(shipped).has(keyword), `${name}: ${keyword}`).toBe(false);
    const { $schema: _a, $defs, ...rest } = shipped;
    const { $schema: _b, definitions, ...converted } = draft07;
    if (name === "eventSchema" || name === "webhookPayloadSchema") {
      // `$defs` becomes `definitions`, and the references follow.
      expect(Object.keys(definitions as object)).toEqual(Object.keys($defs as object));
      expect(JSON.stringify(draft07)).not.toContain('"#/$defs/');
      expect(JSON.stringify(converted).replaceAll("#/definitions/", "#/$defs/")).toBe(JSON.stringify(rest));
    } else {
      expect($defs).toBeUndefined();
      expect(definitions).toBeUndefined();
      expect(converted).toStrictEqual(rest);
    }
  });

  it("throws for a target it does not support, as the specification asks", () => {
    const { jsonSchema } = standard.timerContent["~standard"];
    expect(() => jsonSchema.input({ target: "openapi-3.0" })).toThrow(TypeError);
    expect(() => jsonSchema.output({ target: "draft-04" })).toThrow(
      /no JSON Schema for the target "draft-04"/,
    );
    expect(() => standard.eventSchema["~standard"].jsonSchema.input({ target: "draft-2019-09" })).toThrow(
      TypeError,
    );
    // Options that are not what they say: the library's own TypeError, never what a getter threw.
    const trap = () => {
      throw new Error("a trap");
    };
    const unreadable = new Proxy({}, { get: trap, has: trap });
    const unprintable = { toString: trap, [Symbol.toPrimitive]: trap };
    for (const options of [unreadable, { target: unprintable }, { target: Symbol("draft") }]) {
      expect(() => jsonSchema.input(options as never)).toThrow(
        /^no JSON Schema for a target of type (undefined|object|symbol)/,
      );
    }
  });

  it("Ajv (strict) agrees with validate on every JSON conformance case, in both dialects", () => {
    const ajv2020 = createAjv();
    const ajv07 = new AjvDraft07({ strict: true, allErrors: true });
    addFormats(ajv07);
    const compiled = new Map(
      eventTypes.map((type) => {
        const { jsonSchema } = objectOf(type)["~standard"];
        return [
          type,
          {
            draft2020: ajv2020.compile(jsonSchema.input({ target: "draft-2020-12" })),
            draft07: ajv07.compile(jsonSchema.input({ target: "draft-07" })),
          },
        ] as const;
      }),
    );
    const event2020 = ajv2020.compile(
      standard.eventSchema["~standard"].jsonSchema.input({ target: "draft-2020-12" }),
    );
    const event07 = ajv07.compile(standard.eventSchema["~standard"].jsonSchema.input({ target: "draft-07" }));
    let checked = 0;
    for (const row of conformanceCases) {
      if (!isJsonRepresentable(row.content)) continue;
      const verdict = objectOf(row.type)["~standard"].validate(row.content).issues === undefined;
      const what = `${row.type}: ${row.name}`;
      expect(compiled.get(row.type)!.draft2020(row.content), what).toBe(verdict);
      expect(compiled.get(row.type)!.draft07(row.content), what).toBe(verdict);
      const whole = { type: row.type, content: row.content };
      const eventVerdict = standard.eventSchema["~standard"].validate(whole).issues === undefined;
      expect(event2020(whole), what).toBe(eventVerdict);
      expect(event07(whole), what).toBe(eventVerdict);
      checked++;
    }
    expect(checked).toBeGreaterThan(800);
    // The payload: its document's examples, and each spoiled, one member at a time.
    const { jsonSchema, validate } = standard.webhookPayloadSchema["~standard"];
    const payload2020 = ajv2020.compile(jsonSchema.input({ target: "draft-2020-12" }));
    const payload07 = ajv07.compile(jsonSchema.input({ target: "draft-07" }));
    const examples = file("webhook-payload.json").examples as Record<string, unknown>[];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      for (const payload of [
        example,
        { ...example, version: 1 },
        { ...example, content: null },
        { ...example, type: "s.nope" },
      ]) {
        const verdict = validate(payload).issues === undefined;
        expect(payload2020(payload), JSON.stringify(payload)).toBe(verdict);
        expect(payload07(payload), JSON.stringify(payload)).toBe(verdict);
      }
      expect(validate(example).issues).toBeUndefined();
    }
  });
});
