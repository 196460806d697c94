/**
 * The JSON Schema of the webhook payloads and of the documents of `POST /events` means exactly what
 * the library's own parsers mean: Ajv in strict mode (every check on, `ajv-formats`) and the library
 * give the same verdict on every conformance row of the content placed in a payload or a document,
 * on the examples, and on generated inputs per file (valid, near misses, arbitrary JSON). The same
 * inputs run through Python's jsonschema in python.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldNameSchema } from "../../scripts/contracts/checkKeywords.js";
import { isValidIdempotencyKey } from "../../src/idempotency/index.js";
import { isJsonApiFieldName } from "../../src/jsonapi/index.js";
import { createAjv, readGeneratedSchema } from "../support/ajv.js";
import {
  type ContractSchemaFile,
  contractSchemaFiles,
  inputsFor,
  libraryAccepts,
  placedConformanceRows,
} from "./contractInputs.js";

const ajv = createAjv();
const ajvFirstError = createAjv({ allErrors: false });
const compiled = new Map(
  contractSchemaFiles.map((file) => [
    file,
    { all: ajv.compile(readGeneratedSchema(file)), first: ajvFirstError.compile(readGeneratedSchema(file)) },
  ]),
);

/** Ajv, stopping at the first error or not, and the library agree on `value` for `file`. */
function agree(file: ContractSchemaFile, value: unknown): void {
  const library = libraryAccepts(file, value);
  const { all, first } = compiled.get(file)!;
  if (all(value) !== library || first(value) !== library) {
    throw new Error(
      `${file}: the library says ${library ? "valid" : "invalid"}, Ajv says ${library ? "invalid" : "valid"} for ${JSON.stringify(value)}: ${JSON.stringify(all.errors?.slice(0, 3))}`,
    );
  }
}

const RUNS = 500;

describe("the payload and document schemas agree with the library", () => {
  it("on every conformance row of the content, placed in a payload, a request and a response document", () => {
    const rows = placedConformanceRows();
    expect(rows.length).toBeGreaterThan(1000);
    for (const [file, value] of rows) agree(file, value);
  });

  it.each(contractSchemaFiles)(`%s: on ${RUNS} generated inputs, both verdicts well represented`, (file) => {
    let valid = 0;
    fc.assert(
      fc.property(inputsFor(file), (value) => {
        agree(file, value);
        if (libraryAccepts(file, value)) valid++;
      }),
      { numRuns: RUNS },
    );
    // The generators must probe both sides of the rule, not one.
    expect(valid).toBeGreaterThan(RUNS / 20);
    expect(valid).toBeLessThan(RUNS - RUNS / 20);
  });

  it("the field-name rule is isJsonApiFieldName, and the key rule isValidIdempotencyKey, on any string", () => {
    const fieldName = createAjv().compile(fieldNameSchema);
    const key = createAjv().compile(
      (
        readGeneratedSchema("event-document.json") as {
          properties: { data: { properties: { meta: { properties: Record<string, object> } } } };
        }
      ).properties.data.properties.meta.properties["idempotency-key"]!,
    );
    const strings = fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.stringMatching(/^[-_A-Za-z0-9]{1,6}\n?$/),
      fc.stringMatching(/^[!-~]{0,4}\n?$/),
    );
    fc.assert(
      fc.property(strings, (value) => {
        expect(fieldName(value), JSON.stringify(value)).toBe(isJsonApiFieldName(value));
        expect(key(value), JSON.stringify(value)).toBe(isValidIdempotencyKey(value));
      }),
      { numRuns: 3000 },
    );
  });
});
