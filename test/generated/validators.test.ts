/**
 * The compiled validators and guards are generated from the Zod schemas and committed: regenerating
 * them must give the committed files byte for byte, so that a schema change without
 * `npm run build:validators` fails here instead of shipping validators that disagree with the schemas.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatGenerated } from "../../scripts/formatGenerated.js";
import { generateContentGuards, generateGuards } from "../../scripts/guardGenerator.js";
import {
  generateContentParsers,
  generateDocuments,
  generateValidators,
} from "../../scripts/validatorGenerator.js";

const source = (file: string) => fileURLToPath(new URL(`../../src/${file}`, import.meta.url));

describe("generated validators", () => {
  it.each([
    ["events/compiledValidators.ts", generateValidators],
    ["events/contentParsers.ts", generateContentParsers],
    ["jsonapi/compiledDocuments.ts", generateDocuments],
    ["events/compiledGuards.ts", generateGuards],
    ["events/contentGuards.ts", generateContentGuards],
  ] as const)("src/%s is what the generator writes from the schemas today", (file, generate) => {
    const committed = readFileSync(source(file), "utf8");
    const fresh = formatGenerated(generate(), source(file));
    // When this fails: run `npm run build:validators` and commit the result.
    expect(fresh === committed, `src/${file} is stale: run npm run build:validators`).toBe(true);
  });
});
