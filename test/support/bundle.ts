/** Bundles a snippet that imports the built package, as a user's bundler would, and measures it. */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = new URL("../../", import.meta.url).pathname;

export interface BundleReport {
  readonly code: string;
  /** Minified bytes. */
  readonly minified: number;
  /** Minified, then gzip -9, bytes. */
  readonly gzipped: number;
}

/** Bundles `source` (ESM that imports "messaging-events…") for the browser, minified. */
export async function bundle(source: string): Promise<BundleReport> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  return { code, minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
