/** Ajv (JSON Schema 2020-12 with ajv-formats) loaded with the JSON Schema files the package ships. */
import { existsSync, readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv";
import ajv2020Module from "ajv/dist/2020.js";
import ajvFormatsModule from "ajv-formats";
import { type JsonSchemaDocument, jsonSchemaFiles } from "../../scripts/jsonSchema.js";
import type { EventType } from "../../src/events/index.js";

// Both are CommonJS: from ESM, the default import is `module.exports`, whose `default` is the export.
const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;

/** Where the built package keeps its JSON Schema. */
export const jsonSchemaDir = new URL("../../dist/json-schema/", import.meta.url);

/** Reads one shipped JSON Schema file; the build must have run (`npm test` runs it). */
export function readShippedSchema(fileName: string): JsonSchemaDocument {
  const url = new URL(fileName, jsonSchemaDir);
  if (!existsSync(url)) throw new Error(`${url.pathname} is missing: run "npm run build" first`);
  return JSON.parse(readFileSync(url, "utf8")) as JsonSchemaDocument;
}

let generated: Map<string, JsonSchemaDocument> | undefined;

/** Reads one file as the generator makes it from the current schemas, without a build. */
export function readGeneratedSchema(fileName: string): JsonSchemaDocument {
  generated ??= jsonSchemaFiles();
  const schema = generated.get(fileName);
  if (schema === undefined) throw new Error(`the generator makes no ${fileName}`);
  return schema;
}

/**
 * Ajv for draft 2020-12 in strict mode with every strict check on (none turned off) and the
 * standard formats, as another-language server would set one up.
 */
export function createAjv({ allErrors = true }: { allErrors?: boolean } = {}): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ strict: true, allErrors });
  addFormats(ajv);
  return ajv;
}

/** Compiled validators for each content schema file and for the `event.json` bundle. */
export function compileSchemas(
  read: (fileName: string) => JsonSchemaDocument,
  options?: { allErrors?: boolean },
): {
  content: (type: EventType) => ValidateFunction;
  event: ValidateFunction;
} {
  const ajv = createAjv(options);
  const cache = new Map<string, ValidateFunction>();
  return {
    content: (type) => {
      const cached = cache.get(type);
      if (cached) return cached;
      const validate = ajv.compile(read(`${type}.json`));
      cache.set(type, validate);
      return validate;
    },
    event: ajv.compile(read("event.json")),
  };
}

/** Compiled validators for the files in `dist/json-schema/` (the build must have run). */
export function compileShippedSchemas(options?: { allErrors?: boolean }): ReturnType<typeof compileSchemas> {
  return compileSchemas(readShippedSchema, options);
}
