/** Each subpath's main imports, bundled alone: sizes printed, and zod only where schemas are needed. */
import { afterAll, describe, expect, it } from "vitest";
import { bundle, kb } from "../support/bundle.js";

const report: [string, number, number][] = [];
afterAll(() => {
  console.log(
    `\nSubpath bundle sizes (esbuild --minify, gzip -9)\n${report
      .map(
        ([name, min, gz]) =>
          `  ${name.padEnd(58)} ${kb(min).padStart(9)} min  ${kb(gz).padStart(9)} min+gzip`,
      )
      .join("\n")}`,
  );
});

const cases: [string, string, boolean][] = [
  [
    "messaging-events/idempotency",
    "createIdempotencyKey, isValidIdempotencyKey, withIdempotencyKey, readIdempotencyKey",
    false,
  ],
  ["messaging-events/jsonapi", "isJsonApiMediaType, acceptsJsonApi, JSON_API_MEDIA_TYPE", false],
  ["messaging-events/jsonapi", "toJsonApiErrors", false],
  ["messaging-events/jsonapi", "createEventDocument", true],
  ["messaging-events/jsonapi", "safeParseEventDocument", true],
  ["messaging-events/client", "createEventsClient", true],
];

describe("subpath imports", () => {
  it.each(cases)("%s: { %s } (zod: %s)", async (from, names, needsZod) => {
    const { code, minified, gzipped } = await bundle(
      `import { ${names} } from "${from}"; console.log(${names});`,
    );
    report.push([
      `{ ${names.length > 40 ? `${names.slice(0, 37)}...` : names} } from ${from.replace("messaging-events/", "")}`,
      minified,
      gzipped,
    ]);
    expect(code.includes("_zod"), "zod").toBe(needsZod);
  });
});
