/**
 * `npm run build:validators`: writes `src/events/compiledValidators.ts`, `src/events/contentParsers.ts`,
 * `src/jsonapi/compiledDocuments.ts` (see scripts/validatorGenerator.ts), `src/events/compiledGuards.ts`
 * and `src/events/contentGuards.ts` (see scripts/guardGenerator.ts) from the Zod schemas, formatted
 * as the project formats its sources.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./formatGenerated.js";
import { generateContentGuards, generateGuards } from "./guardGenerator.js";
import { generateContentParsers, generateDocuments, generateValidators } from "./validatorGenerator.js";

for (const [file, generate] of [
  ["events/compiledValidators.ts", generateValidators],
  ["events/contentParsers.ts", generateContentParsers],
  ["events/compiledGuards.ts", generateGuards],
  ["events/contentGuards.ts", generateContentGuards],
  ["jsonapi/compiledDocuments.ts", generateDocuments],
] as const) {
  const target = fileURLToPath(new URL(`../src/${file}`, import.meta.url));
  writeFileSync(target, formatGenerated(generate(), target));
  console.log(`validators: src/${file} written`);
}
