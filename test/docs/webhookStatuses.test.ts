/**
 * The receiver's status table, as the README and the receiving guide print it, is the one the code
 * answers from: every code of WebhookVerificationError is a row, each row's status and kind are the
 * error's own, and both pages print the same rows. The guide's option defaults are the receiver's.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RECEIVER_DEFAULTS } from "../../src/webhooks/normalizeReceiverOptions.js";
import {
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "../../src/webhooks/WebhookVerificationError.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, "utf8");

/** The rows between the status markers of a page: [status, code, kind]. */
function statusRows(page: string): string[][] {
  const text = read(page);
  const start = text.indexOf("<!-- statuses:start -->");
  const end = text.indexOf("<!-- statuses:end -->");
  expect(start, `${page} has the status table`).toBeGreaterThan(0);
  return text
    .slice(start, end)
    .split("\n")
    .filter((line) => /^\| \d{3} \|/.test(line))
    .map((line) => {
      const cells = line.split("|").map((cell) => cell.trim());
      return [cells[1]!, cells[2]!.replace(/`/g, ""), cells[4]!];
    });
}

/** Every code the error class knows, read from its one table in the source. */
const codes = [
  ...read("src/webhooks/WebhookVerificationError.ts")
    .slice(read("src/webhooks/WebhookVerificationError.ts").indexOf("const STATUSES = {"))
    .matchAll(/^ {2}([A-Z_]+): \d{3},$/gm),
].map((match) => `ERR_WEBHOOK_${match[1]}` as WebhookVerificationErrorCode);

describe("the receiver's status table", () => {
  it("is printed the same in the README and the receiving guide", () => {
    expect(statusRows("README.md")).toEqual(statusRows("docs/receiving-webhooks.md"));
  });

  it("has one row per error code, with the error's own status and kind, and 204 for processed", () => {
    const rows = statusRows("docs/receiving-webhooks.md");
    expect(codes.length).toBeGreaterThan(15);
    expect(
      rows
        .filter(([, code]) => code !== "")
        .map(([, code]) => code)
        .sort(),
    ).toEqual([...codes].sort());
    expect(rows.filter(([, code]) => code === "")).toEqual([["204", "", ""]]);
    for (const [status, code, kind] of rows) {
      if (code === "") continue;
      const error = new WebhookVerificationError(code as WebhookVerificationErrorCode, "x");
      expect([error.code, String(error.status), error.kind]).toEqual([code, status, kind]);
    }
  });
});

describe("the receiving guide's options", () => {
  it("give the receiver's defaults", () => {
    const text = read("docs/receiving-webhooks.md");
    const table = text.slice(text.indexOf("## Options"), text.indexOf("## Recipes"));
    const defaults = Object.fromEntries(
      [...table.matchAll(/^\| `(\w+)` \| `([\d_]+)` \|/gm)].map((match) => [
        match[1],
        Number(match[2]!.replace(/_/g, "")),
      ]),
    );
    expect(defaults).toEqual({ ...RECEIVER_DEFAULTS });
  });
});
