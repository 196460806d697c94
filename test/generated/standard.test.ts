/**
 * `messaging-events/standard`'s per-type modules are generated from the content schemas and the
 * shipped JSON Schema documents, and committed: regenerating them must give the committed files
 * byte for byte, so that a change to a schema or to the JSON Schema generator without
 * `npm run build:standard` fails here instead of shipping objects that disagree with them.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatGenerated } from "../../scripts/formatGenerated.js";
import {
  generateContentStandardSchemas,
  generateJsonSchemaTexts,
} from "../../scripts/standardSchemaGenerator.js";

const source = (file: string) => fileURLToPath(new URL(`../../src/${file}`, import.meta.url));

describe("generated Standard Schema modules", () => {
  it.each([
    ["standard/contentStandardSchemas.ts", generateContentStandardSchemas],
    ["standard/jsonSchemaTexts.ts", generateJsonSchemaTexts],
  ] as const)("src/%s is what the generator writes today", (file, generate) => {
    const committed = readFileSync(source(file), "utf8");
    const fresh = formatGenerated(generate(), source(file));
    // When this fails: run `npm run build:standard` and commit the result.
    expect(fresh === committed, `src/${file} is stale: run npm run build:standard`).toBe(true);
  });
});
