/** Writes the generated JSON Schema files into `dist/json-schema/` (run by `npm run build`). */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { jsonSchemaFiles } from "./jsonSchema.js";

const outDir = fileURLToPath(new URL("../dist/json-schema/", import.meta.url));
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const files = jsonSchemaFiles();
for (const [name, schema] of files) writeFileSync(`${outDir}${name}`, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`JSON Schema: ${files.size} files in dist/json-schema/`);
