/**
 * The webhook verifier is for backends and edge functions of any size: importing it must pull in
 * no zod and stay within 1.5 KB min+gzip. Sizes are printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { bundle, kb } from "../support/bundle.js";

const VERIFY_BUDGET = 1.5 * 1024;
const report: [string, number, number][] = [];

afterAll(() => {
  console.log(
    `\nWebhook bundle sizes (esbuild --minify, gzip -9), budget for verifyWebhook ${kb(VERIFY_BUDGET)}\n${report
      .map(
        ([name, min, gz]) =>
          `  ${name.padEnd(34)} ${kb(min).padStart(9)} min  ${kb(gz).padStart(9)} min+gzip`,
      )
      .join("\n")}`,
  );
});

const zodMarkers = ["$ZodType", "zod", "_zod"];

describe("tree-shaking of messaging-events/webhooks", () => {
  it("verifyWebhook alone has no zod and fits 1.5 KB", async () => {
    const { code, minified, gzipped } = await bundle(
      'import { verifyWebhook } from "messaging-events/webhooks"; console.log(verifyWebhook);',
    );
    report.push(["verifyWebhook", minified, gzipped]);
    for (const marker of zodMarkers) expect(code.includes(marker), `found ${marker}`).toBe(false);
    expect(code).toContain("crypto.subtle.verify");
    expect(gzipped).toBeLessThanOrEqual(VERIFY_BUDGET);
  });

  it.each([
    "safeVerifyWebhook",
    "signWebhook",
    "createWebhookVerifier",
    "createWebhookSigner",
    "verifyWebhookRequest",
    "createWebhookRequest",
  ])("%s alone has no zod", async (name) => {
    const { code, minified, gzipped } = await bundle(
      `import { ${name} } from "messaging-events/webhooks"; console.log(${name});`,
    );
    report.push([name, minified, gzipped]);
    for (const marker of zodMarkers) expect(code.includes(marker), `found ${marker}`).toBe(false);
  });

  it("the typed payload brings zod and only the seven webhook content schemas", async () => {
    const { code, minified, gzipped } = await bundle(
      'import { verifyWebhookPayload } from "messaging-events/webhooks"; console.log(verifyWebhookPayload);',
    );
    report.push(["verifyWebhookPayload", minified, gzipped]);
    expect(code).toContain("creatorId");
    for (const absent of ["OUTSIDE_BUSINESS_HOURS", "textarea", "liveChatId", "EXPIRED"])
      expect(code.includes(absent), absent).toBe(false);
  });
});
