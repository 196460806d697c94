import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

/** `source` formatted (and its imports sorted) by Biome as the file at `path` would be, so that generated files stay byte-stable. */
export function formatGenerated(source: string, path: string): string {
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  return execFileSync(process.execPath, [biome, "check", "--write", `--stdin-file-path=${path}`], {
    input: source,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}
