/**
 * `npm run build:validators`: writes `src/events/compiledValidators.ts`, `src/events/contentParsers.ts` and
 * `src/jsonapi/compiledDocuments.ts` from the Zod schemas (see
 * scripts/validatorGenerator.ts), formatted as the project formats its sources.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./formatGenerated.js";
import { generateContentParsers, generateDocuments, generateValidators } from "./validatorGenerator.js";

for (const [file, generate] of [
  ["events/compiledValidators.ts", generateValidators],
  ["events/contentParsers.ts", generateContentParsers],
  ["jsonapi/compiledDocuments.ts", generateDocuments],
] as const) {
  const target = fileURLToPath(new URL(`../src/${file}`, import.meta.url));
  writeFileSync(target, formatGenerated(generate(), target));
  console.log(`validators: src/${file} written`);
}
