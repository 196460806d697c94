/**
 * The JSON Schema must mean exactly what the Zod schemas mean: Ajv in strict mode and Zod give the
 * same verdict on every conformance row and on thousands of generated inputs per type. The files
 * come straight from the generator; shipped.test.ts proves the shipped files are byte for byte
 * what it makes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventTypes, safeParseEvent, safeParseEventContent } from "../../src/events/index.js";
import { conformanceCases } from "../conformance/cases.js";
import { compileSchemas, readGeneratedSchema } from "../support/ajv.js";
import { mutated } from "../support/mutations.js";
import { validContent } from "../support/validContent.js";

const ajv = compileSchemas(readGeneratedSchema);
// Ajv compiles other code when it stops at the first error: the verdict must not depend on it.
const ajvFirstError = compileSchemas(readGeneratedSchema, { allErrors: false });
// 48,000 values per run over the 32 types (and the differential test of the compiled validators,
// test/properties/compiled.test.ts, checks Ajv's verdict on its own 14,000).
const RUNS = 600;

function agree(type: (typeof eventTypes)[number], content: unknown): void {
  const zod = safeParseEventContent(type, content).success;
  const json = ajv.content(type)(content);
  if (zod !== json) {
    throw new Error(
      `${type}: Zod says ${zod ? "valid" : "invalid"}, Ajv says ${json ? "valid" : "invalid"} for ${JSON.stringify(content)}`,
    );
  }
  expect(ajv.event({ type, content })).toBe(zod);
  expect(ajvFirstError.event({ type, content })).toBe(zod);
  expect(safeParseEvent({ type, content }).success).toBe(zod);
}

describe("JSON Schema and Zod agree", () => {
  it.each(conformanceCases.map((row) => [`${row.type}: ${row.name}`, row] as const))(
    "on the conformance row %s",
    (_name, row) => {
      expect(ajv.content(row.type)(row.content)).toBe(row.valid);
      agree(row.type, row.content);
    },
  );

  describe.each(eventTypes)("%s", (type) => {
    it(`on ${RUNS} generated valid contents (all valid)`, () => {
      fc.assert(
        fc.property(validContent[type], (content) => {
          expect(safeParseEventContent(type, content).success).toBe(true);
          agree(type, content);
        }),
        { numRuns: RUNS },
      );
    });

    it(`on ${RUNS} near misses (one change inside valid content)`, () => {
      fc.assert(
        fc.property(validContent[type].chain(mutated), (content) => agree(type, content)),
        { numRuns: RUNS },
      );
    });

    it(`on ${RUNS / 2} arbitrary JSON values`, () => {
      fc.assert(
        fc.property(fc.jsonValue(), (content) => agree(type, content)),
        { numRuns: RUNS / 2 },
      );
    });
  });

  it("on whole events with unknown types and extra members", () => {
    const event = fc.record(
      {
        type: fc.oneof(fc.constantFrom(...eventTypes), fc.string(), fc.constant("s.message.delete")),
        content: fc.oneof(...eventTypes.map((type) => validContent[type])),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ["type"] },
    );
    fc.assert(
      fc.property(event, (value) => {
        const zod = safeParseEvent(value).success;
        expect(ajv.event(value)).toBe(zod);
        expect(ajvFirstError.event(value)).toBe(zod);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
