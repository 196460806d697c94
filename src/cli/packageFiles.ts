import { readFile } from "node:fs/promises";

// This file lies at dist/cli/packageFiles.js once built, and at src/cli/packageFiles.ts in the
// repository: both are two folders below the package root.
const packageRoot = new URL("../../", import.meta.url);

/** The version in the package's package.json. */
export async function packageVersion(): Promise<string> {
  const text = await readFile(new URL("package.json", packageRoot), "utf8");
  const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === "string" ? version : "unknown";
}

/** Where the built package is: dist/, the built program's folder's parent. */
export const distFolder = new URL("../", import.meta.url);

/** Where the built JSON Schema files are: dist/json-schema/, beside the built program's folder. */
export const jsonSchemaFolder = new URL("json-schema/", distFolder);

/** The generator of the contract files (JSON Schema, examples, OpenAPI, AsyncAPI), which a checkout has (scripts/ is not published). */
export const contractGenerator = new URL("scripts/contracts/contractFiles.ts", packageRoot);

/** Whether the program runs from its TypeScript source (a checkout, through tsx) rather than built. */
export const runsFromSource = import.meta.url.endsWith(".ts");
