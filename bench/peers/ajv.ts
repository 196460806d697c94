/**
 * Ajv on the JSON Schema files the package ships (`dist/json-schema`), three ways: compiled with
 * `allErrors: false` (stops at the first error, the baseline), with `allErrors: true`, and as
 * standalone code (ajv/dist/standalone: the validators written out as a module, no Ajv at run time).
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import ajv2020Module from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import ajvFormatsModule from "ajv-formats";
import { type EventType, eventTypes } from "../../src/events/index.js";
import { readShippedSchema } from "../../test/support/ajv.js";

// CommonJS modules: from ESM, the default import is `module.exports`, whose `default` is the export.
const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;
const standaloneCode = standaloneModule.default;

/** The `$id` of a type's shipped content schema. */
const idOf = (type: EventType): string => `urn:messaging-events:json-schema:${type}`;
/** A JavaScript name for a type's export in the standalone module: `s.message.text` -> `s_message_text`. */
export const exportNameOf = (type: EventType): string => type.replaceAll(".", "_");

/**
 * The standalone module source validating `types` (all 32 by default), one export per type, with
 * the same Ajv options as the compiled contenders (`allErrors: false`, strict, ajv-formats).
 */
export function ajvStandaloneSource(
  types: readonly EventType[] = eventTypes,
  { esm = true }: { esm?: boolean } = {},
): string {
  const ajv = new Ajv2020({ strict: true, allErrors: false, code: { source: true, esm } });
  addFormats(ajv);
  for (const type of types) ajv.addSchema(readShippedSchema(`${type}.json`));
  return standaloneCode(ajv, Object.fromEntries(types.map((type) => [exportNameOf(type), idOf(type)])));
}

/** Loads the standalone (CommonJS) module of all 32 types: Node compiles it as it would a file. */
export function loadAjvStandalone(): { readonly [T in EventType]: ValidateFunction } {
  const module = { exports: {} as Record<string, ValidateFunction> };
  const require = createRequire(import.meta.url);
  new Function("require", "module", "exports", ajvStandaloneSource(eventTypes, { esm: false }))(
    require,
    module,
    module.exports,
  );
  return Object.fromEntries(eventTypes.map((type) => [type, module.exports[exportNameOf(type)]!])) as {
    [T in EventType]: ValidateFunction;
  };
}
