/**
 * `npm run build:validators`: writes `src/events/compiledValidators.ts` from the Zod schemas (see
 * scripts/validatorGenerator.ts), formatted as the project formats its sources.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./formatGenerated.js";
import { generateContentParsers, generateValidators } from "./validatorGenerator.js";

for (const [file, generate] of [
  ["compiledValidators.ts", generateValidators],
  ["contentParsers.ts", generateContentParsers],
] as const) {
  const target = fileURLToPath(new URL(`../src/events/${file}`, import.meta.url));
  writeFileSync(target, formatGenerated(generate(), target));
  console.log(`validators: src/events/${file} written`);
}
