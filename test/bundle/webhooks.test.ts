/**
 * The byte-level webhook verifier is for backends and edge functions of any size: importing it must
 * pull in no zod and stay within its budget min+gzip. The typed verifiers bring zod and only the
 * seven webhook content schemas. Sizes are printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { bundle, kb } from "../support/bundle.js";

// 3.32 KB measured: the checks that hostile input needs (exact signature spellings, every binary
// view by its bytes, repeated and numeric headers and options, messages that name the fix) took the
// verifier past its first 1.5 KB; the budget keeps it from growing further unnoticed. 3.53 KB since
// the error class carries the one status table of receiving (every code, its status and kind) and
// verified results their window's end.
const VERIFY_BUDGET = 3.6 * 1024;
const report: [string, number, number][] = [];

afterAll(() => {
  console.log(
    `\nWebhook bundle sizes (esbuild --minify, gzip -9), budget for verifyWebhookSignature ${kb(VERIFY_BUDGET)}\n${report
      .map(
        ([name, min, gz]) =>
          `  ${name.padEnd(34)} ${kb(min).padStart(9)} min  ${kb(gz).padStart(9)} min+gzip`,
      )
      .join("\n")}`,
  );
});

const zodMarkers = ["$ZodType", "zod", "_zod"];

describe("tree-shaking of messaging-events/webhooks", () => {
  it("verifyWebhookSignature alone has no zod and fits its budget", async () => {
    const { code, minified, gzipped } = await bundle(
      'import { verifyWebhookSignature } from "messaging-events/webhooks"; console.log(verifyWebhookSignature);',
    );
    report.push(["verifyWebhookSignature", minified, gzipped]);
    for (const marker of zodMarkers) expect(code.includes(marker), `found ${marker}`).toBe(false);
    expect(code).toContain("crypto.subtle.verify");
    expect(gzipped).toBeLessThanOrEqual(VERIFY_BUDGET);
  });

  it.each(["safeVerifyWebhookSignature", "signWebhook", "createWebhookSigner", "createWebhookRequest"])(
    "%s alone has no zod",
    async (name) => {
      const { code, minified, gzipped } = await bundle(
        `import { ${name} } from "messaging-events/webhooks"; console.log(${name});`,
      );
      report.push([name, minified, gzipped]);
      for (const marker of zodMarkers) expect(code.includes(marker), `found ${marker}`).toBe(false);
    },
  );

  it.each(["verifyWebhook", "verifyWebhookRequest", "createWebhookVerifier"])(
    "%s (typed) brings zod and only the seven webhook content schemas",
    async (name) => {
      const { code, minified, gzipped } = await bundle(
        `import { ${name} } from "messaging-events/webhooks"; console.log(${name});`,
      );
      report.push([name, minified, gzipped]);
      expect(code).toContain("creatorId");
      for (const absent of ["OUTSIDE_BUSINESS_HOURS", "textarea", "liveChatId", "EXPIRED"])
        expect(code.includes(absent), absent).toBe(false);
    },
  );
});
