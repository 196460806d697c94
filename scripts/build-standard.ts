/**
 * `npm run build:standard`: writes `src/standard/contentStandardSchemas.ts` and
 * `src/standard/jsonSchemaTexts.ts` (see scripts/standardSchemaGenerator.ts), formatted as the
 * project formats its sources. Run it after changing a content schema or the JSON Schema generator.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./formatGenerated.js";
import { generateContentStandardSchemas, generateJsonSchemaTexts } from "./standardSchemaGenerator.js";

for (const [file, generate] of [
  ["standard/jsonSchemaTexts.ts", generateJsonSchemaTexts],
  ["standard/contentStandardSchemas.ts", generateContentStandardSchemas],
] as const) {
  const target = fileURLToPath(new URL(`../src/${file}`, import.meta.url));
  writeFileSync(target, formatGenerated(generate(), target));
  console.log(`standard: src/${file} written`);
}
