/**
 * Writes the generated contract files into `dist/` (run by `npm run build`): the JSON Schema files
 * (`dist/json-schema/`), the examples (`dist/examples/`), `dist/openapi.json` and `dist/asyncapi.json`.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { contractFiles, contractPaths, fileText } from "./contracts/contractFiles.js";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
for (const path of contractPaths) rmSync(`${dist}${path}`, { recursive: true, force: true });
const files = await contractFiles();
for (const [path, value] of files) {
  mkdirSync(dirname(`${dist}${path}`), { recursive: true });
  writeFileSync(`${dist}${path}`, fileText(value));
}
const count = (prefix: string) => [...files.keys()].filter((path) => path.startsWith(prefix)).length;
console.log(
  `Contracts: ${count("json-schema/")} JSON Schema files, ${count("examples/")} examples, openapi.json and asyncapi.json in dist/`,
);
