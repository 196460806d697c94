/**
 * Writes test/runtimes/cases.json: the conformance table as plain JSON, for the runtime suite,
 * which runs where the TypeScript test files cannot (workerd, edge-runtime, a browser).
 * Run: npx tsx scripts/runtime-cases.ts (a test fails when the file is out of date).
 */
import { writeFileSync } from "node:fs";
import { conformanceCases } from "../test/conformance/cases.js";

export const runtimeCasesJson = (): string => `${JSON.stringify(conformanceCases)}\n`;

if (process.argv[1]?.endsWith("runtime-cases.ts")) {
  writeFileSync(new URL("../test/runtimes/cases.json", import.meta.url), runtimeCasesJson());
  console.log(`wrote ${conformanceCases.length} cases to test/runtimes/cases.json`);
}
