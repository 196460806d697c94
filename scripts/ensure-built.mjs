#!/usr/bin/env node
// Builds the package only when dist/ is missing or older than its sources: the quick start and the
// test, demo and bench scripts call this instead of rebuilding every time. `--stamp` records the
// sources of a build that just finished (`npm run build` does it).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const stampFile = join(root, "dist", ".sources");
const inputs = [
  "src",
  "scripts/jsonSchema.ts",
  "scripts/build-json-schema.ts",
  "scripts/contracts",
  "scripts/build-types.mjs",
  "scripts/build-inspector.ts",
  "tsup.config.ts",
  "package.json",
  "tsconfig.json",
  "tsconfig.src.json",
  "tsconfig.types.json",
];

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  try {
    return readdirSync(full, { withFileTypes: true }).flatMap((entry) =>
      entry.name.endsWith(".test.ts") || entry.name.endsWith(".test-d.ts")
        ? []
        : files(join(path, entry.name)),
    );
  } catch {
    return [path];
  }
}

/** A hash of every source the build reads. */
function sourcesHash() {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap(files).sort()) {
    hash.update(relative(root, join(root, file)));
    hash.update(readFileSync(join(root, file)));
  }
  return hash.digest("hex");
}

if (process.argv.includes("--stamp")) {
  writeFileSync(stampFile, `${sourcesHash()}\n`);
} else {
  const current = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : "";
  if (current !== sourcesHash()) {
    console.log("Building: dist/ is missing or older than its sources.");
    const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
    process.exit(result.status ?? 1);
  }
}
