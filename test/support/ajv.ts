/** Ajv (JSON Schema 2020-12 with ajv-formats) loaded with the JSON Schema files the package ships. */
import { existsSync, readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv";
import ajv2020Module from "ajv/dist/2020.js";
import ajvFormatsModule from "ajv-formats";
import type { EventType } from "../../src/events/index.js";

// Both are CommonJS: from ESM, the default import is `module.exports`, whose `default` is the export.
const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;

/** Where the built package keeps its JSON Schema. */
export const jsonSchemaDir = new URL("../../dist/json-schema/", import.meta.url);

/** Reads one shipped JSON Schema file; the build must have run (`npm test` runs it). */
export function readShippedSchema(fileName: string): Record<string, unknown> {
  const url = new URL(fileName, jsonSchemaDir);
  if (!existsSync(url)) throw new Error(`${url.pathname} is missing: run "npm run build" first`);
  return JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>;
}

/** A strict Ajv for draft 2020-12 with the standard formats, as another-language server would set one up. */
export function createAjv(): InstanceType<typeof Ajv2020> {
  // strictRequired would reject the media rule's `oneOf: [{ required: ["label"] }, …]`, which is
  // standard JSON Schema: the properties it names are declared one level up.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Compiled validators for each content schema file and for the `event.json` bundle. */
export function compileShippedSchemas(): {
  content: (type: EventType) => ValidateFunction;
  event: ValidateFunction;
} {
  const ajv = createAjv();
  const cache = new Map<string, ValidateFunction>();
  return {
    content: (type) => {
      const cached = cache.get(type);
      if (cached) return cached;
      const validate = ajv.compile(readShippedSchema(`${type}.json`));
      cache.set(type, validate);
      return validate;
    },
    event: ajv.compile(readShippedSchema("event.json")),
  };
}
