#!/usr/bin/env node
// Type declarations for the package, in one TypeScript pass: `.d.ts` beside each ESM module, then a
// `.d.cts` twin of each for `require` (its relative imports point at `.cjs`, so that TypeScript reads
// the CommonJS declarations all the way down). One pass instead of one per module format per entry.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
execFileSync(
  process.execPath,
  [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.types.json")],
  {
    stdio: "inherit",
  },
);

function* declarations(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* declarations(path);
    else if (entry.name.endsWith(".d.ts")) yield path;
  }
}

let count = 0;
for (const file of declarations(join(root, "dist"))) {
  const source = readFileSync(file, "utf8");
  // `from "./x.js"`, `import("./x.js")`: relative specifiers only; packages (zod) stay as they are.
  const cjs = source.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.js(["'])/g, "$1$2.cjs$3");
  writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), cjs);
  count++;
}
console.log(`Types: ${count} declaration files, each as .d.ts and .d.cts`);
