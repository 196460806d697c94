/**
 * Each subpath's main imports, bundled alone: sizes printed, and zod only where schemas are needed.
 * Entries are written as scripts/sizes.ts writes them, so the figures match the README's table.
 */
import { afterAll, describe, expect, it } from "vitest";
import { entryOf } from "../../scripts/sizes.js";
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
  // Documents are validated by generated code too: the document parsers, the client and the
  // server's handler carry no Zod.
  ["messaging-events/jsonapi", "createEventDocument", false],
  ["messaging-events/jsonapi", "safeParseEventDocument", false],
  ["messaging-events/jsonapi", "eventDocumentSchema", true],
  ["messaging-events/client", "createEventsClient", false],
  ["messaging-events/server", "createMemoryIdempotencyStore", false],
  ["messaging-events/server", "createEventsHandler", false],
  ["messaging-events/server/redis", "createRedisIdempotencyStore", false],
  ["messaging-events/dispatch", "createMemoryDeliveryQueue", false],
  // The dispatcher validates its payloads with the compiled webhook validator: no Zod.
  ["messaging-events/dispatch", "createWebhookDispatcher", false],
  ["messaging-events/webhooks", "safeParseWebhookPayload", false],
];

describe("subpath imports", () => {
  it("the optional peers load only from their own subpaths: no redis or bullmq client in the others", async () => {
    for (const [from, names] of [
      ["messaging-events/server", "createEventsHandler, createMemoryIdempotencyStore"],
      ["messaging-events/server/redis", "createRedisIdempotencyStore"],
      ["messaging-events/dispatch", "createWebhookDispatcher, createMemoryDeliveryQueue"],
      ["messaging-events", "createEventsClient, verifyWebhook"],
    ] as const) {
      const { code } = await bundle(entryOf({ label: "", from, names: names.split(", ") }));
      // The clients' own code, were it bundled: BullMQ's name, ioredis's debug namespaces
      // ("ioredis:redis"), node-redis's package. (The Redis store's messages may name ioredis.)
      expect(code, from).not.toMatch(/bullmq|ioredis:|@redis\/client/);
    }
  });

  it.each(cases)("%s: { %s } (zod: %s)", async (from, names, needsZod) => {
    const { code, minified, gzipped } = await bundle(entryOf({ label: "", from, names: names.split(", ") }));
    report.push([
      `{ ${names.length > 40 ? `${names.slice(0, 37)}...` : names} } from ${from.replace("messaging-events/", "")}`,
      minified,
      gzipped,
    ]);
    expect(code.includes("_zod"), "zod").toBe(needsZod);
  });
});
