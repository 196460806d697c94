/**
 * Every generated contract file of the package, by its path under `dist/`: the JSON Schema files
 * (`json-schema/…`), the examples (`examples/events/<name>.json`, `examples/webhooks/<name>.json`),
 * `openapi.json` and `asyncapi.json`. `npm run build` writes them (scripts/build-json-schema.ts); the
 * tests compare what was written with what this makes from the current source.
 */
import { readFileSync } from "node:fs";
import { jsonSchemaFiles } from "../jsonSchema.js";
import { asyncApiDocument } from "./asyncApi.js";
import { eventExamples } from "./eventExamples.js";
import { openApiDocument } from "./openApi.js";
import { webhookExamples } from "./webhookExamples.js";

/** The folders and files under `dist/` that this generator owns, removed before each build writes them. */
export const contractPaths = ["json-schema", "examples", "openapi.json", "asyncapi.json"] as const;

/** The package's version, for the `info` of the OpenAPI and AsyncAPI documents. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/** The example files, by path under `dist/`: each event `{ type, content }` and each webhook payload. */
export function exampleFiles(): Map<string, unknown> {
  const files = new Map<string, unknown>();
  for (const example of eventExamples) files.set(`examples/events/${example.name}.json`, example.event);
  for (const example of webhookExamples) files.set(`examples/webhooks/${example.name}.json`, example.payload);
  return files;
}

/**
 * The contract files whose path under `dist/` starts with `prefix` (all of them for `""`), as JSON
 * values: only what the prefix needs is generated (the OpenAPI document runs the server kit).
 */
export async function contractFiles(prefix = ""): Promise<Map<string, unknown>> {
  const files = new Map<string, unknown>();
  const wanted = (path: string) => path.startsWith(prefix) || prefix.startsWith(path);
  if (wanted("json-schema/"))
    for (const [name, schema] of jsonSchemaFiles()) files.set(`json-schema/${name}`, schema);
  if (wanted("examples/")) for (const [path, value] of exampleFiles()) files.set(path, value);
  const version = packageVersion();
  if (wanted("openapi.json")) files.set("openapi.json", await openApiDocument(version));
  if (wanted("asyncapi.json")) files.set("asyncapi.json", await asyncApiDocument(version));
  for (const path of files.keys()) if (!path.startsWith(prefix)) files.delete(path);
  return files;
}

/** The text of a generated file, as the build writes it. */
export const fileText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
