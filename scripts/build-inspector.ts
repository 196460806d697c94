/**
 * Builds the emulator inspector's page into dist/inspector/ (run by `npm run build`): its script,
 * src/cli/emulator/inspector/page/main.ts bundled with the library's own browser validators into one
 * minified file, its style sheet and its icon. The emulator serves them at /_inspector under a strict
 * Content-Security-Policy; a user needs no build step and nothing from a CDN. Prints the script's size.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));
const page = `${root}src/cli/emulator/inspector/page/`;
const out = `${root}dist/inspector/`;
mkdirSync(out, { recursive: true });

const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning" } as const;
await build({
  ...common,
  entryPoints: [`${page}main.ts`],
  outfile: `${out}inspector.js`,
  format: "esm",
  platform: "browser",
  target: "es2022",
});
await build({ ...common, entryPoints: [`${page}inspector.css`], outfile: `${out}inspector.css` });
copyFileSync(`${page}favicon.svg`, `${out}favicon.svg`);

const script = readFileSync(`${out}inspector.js`);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `Inspector: dist/inspector/inspector.js ${kib(script.byteLength)} minified, ${kib(gzipSync(script).byteLength)} gzip`,
);
