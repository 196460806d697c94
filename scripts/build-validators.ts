/**
 * `npm run build:validators`: writes `src/events/compiledValidators.ts` from the Zod schemas (see
 * scripts/validatorGenerator.ts), formatted as the project formats its sources.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./formatGenerated.js";
import { generateValidators } from "./validatorGenerator.js";

const target = fileURLToPath(new URL("../src/events/compiledValidators.ts", import.meta.url));
writeFileSync(target, formatGenerated(generateValidators(), target));
console.log("validators: src/events/compiledValidators.ts written");
