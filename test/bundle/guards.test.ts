/**
 * A guard bundles alone: esbuild bundles one `is…Content` from the built package, and the output
 * holds no other type's rules, no message, no issue and no error class. The guard of
 * `s.message.text` (the type the size table measures) stays within 1.0 KB, the largest (the
 * actions, a union of five) within 1.6 KB, and all 32 with `isEventContent` and `isEvent` within
 * 5 KB (min+gzip). Entries are written as scripts/sizes.ts writes them, so the figures printed are
 * the size table's.
 */
import { afterAll, describe, expect, it } from "vitest";
import { entryOf } from "../../scripts/sizes.js";
import { type EventType, eventTypes } from "../../src/events/index.js";
import { bundle, kb, schemaMarkers } from "../support/bundle.js";

const markers = schemaMarkers;

/** `isMessageTextContent` for `s.message.text`. */
const guardName = (type: EventType): string =>
  `is${type
    .slice(2)
    .split(".")
    .map((part) => `${part[0]!.toUpperCase()}${part.slice(1)}`)
    .join("")}Content`;

const events = (names: string[]) => entryOf({ label: "", from: "messaging-events/events", names });

/** What a verdict alone never carries: messages, issues, the error class, Zod. */
const validationOnly = ["must be", "is required", "EventValidationError", "invalid_type", "_zod"];

const ONE_GUARD_BUDGET = 1024;
const LARGEST_GUARD_BUDGET = 1.6 * 1024;
const ALL_GUARDS_BUDGET = 5 * 1024;
const report: [string, number, number][] = [];

afterAll(() => {
  const width = Math.max(...report.map(([name]) => name.length));
  console.log(
    `\nGuard bundle sizes (esbuild --minify, gzip -9), budgets: one type ${kb(ONE_GUARD_BUDGET)}, all ${kb(ALL_GUARDS_BUDGET)}\n${report
      .map(
        ([name, min, gz]) =>
          `  ${name.padEnd(width)}  ${kb(min).padStart(9)} min  ${kb(gz).padStart(9)} min+gzip`,
      )
      .join("\n")}`,
  );
});

describe("tree-shaking of the guards", () => {
  it.each(eventTypes)("the guard of %s bundles without the other types, messages or errors", async (type) => {
    const name = guardName(type);
    const { code, gzipped, minified } = await bundle(events([name]));
    report.push([name, minified, gzipped]);
    const own = markers[type];
    if (own) expect(code.includes(own), `${type} is missing its own marker`).toBe(true);
    for (const [other, marker] of Object.entries(markers))
      if (other !== type) expect(code.includes(marker), `${other} leaked into ${name}`).toBe(false);
    for (const text of validationOnly) expect(code.includes(text), `${text} in ${name}`).toBe(false);
    const budget = type === "s.message.text" ? ONE_GUARD_BUDGET : LARGEST_GUARD_BUDGET;
    expect(gzipped, `${name}: ${kb(gzipped)}`).toBeLessThanOrEqual(budget);
  });

  it("all 32 guards, isEventContent and isEvent stay within 5 KB, without messages or errors", async () => {
    const names = [...eventTypes.map(guardName), "isEventContent", "isEvent"];
    const { code, gzipped, minified } = await bundle(events(names));
    report.push(["all 32 guards, isEventContent, isEvent", minified, gzipped]);
    for (const marker of Object.values(markers)) expect(code).toContain(marker);
    for (const text of validationOnly) expect(code.includes(text), text).toBe(false);
    expect(gzipped).toBeLessThanOrEqual(ALL_GUARDS_BUDGET);
  });
});
