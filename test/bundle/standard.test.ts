/**
 * `messaging-events/standard` is tree-shakeable: esbuild bundles one content type's Standard Schema
 * object from the built package, and the output holds neither another type's validator nor its
 * JSON Schema, nor Zod, nor the error class (the objects answer with issues, not errors), within
 * the budget. Every type is bundled alone; markers are the words only one type's shipped JSON
 * Schema holds (its `$id`, and its member names and values no other type uses). Entries are written
 * as scripts/sizes.ts writes them, so the figures printed match the bundle-size table.
 */
import { afterAll, describe, expect, it } from "vitest";
import { jsonSchemaFiles } from "../../scripts/jsonSchema.js";
import { entryOf } from "../../scripts/sizes.js";
import * as events from "../../src/events/index.js";
import { type EventType, eventContentSchemas, eventTypes } from "../../src/events/index.js";
import { bundle, kb } from "../support/bundle.js";

/** One type's object: the issue's target. */
const ONE_BUDGET = 4.8 * 1024;
/** All 32 objects, `eventSchema` and `webhookPayloadSchema`: every validator, and every JSON Schema document as text. */
const ALL_BUDGET = 17 * 1024;

const nameOf = (type: EventType): string =>
  Object.entries(events).find(([, value]) => value === eventContentSchemas[type])![0];

/**
 * The distinctive names in a JSON Schema document: member names and values with a capital letter
 * (`creatorId`, `OUTSIDE_BUSINESS_HOURS`), which no shared code spells.
 */
const distinctive = (word: string): boolean => /^[A-Za-z_]\w{4,}$/.test(word) && /[A-Z]/.test(word);
function wordsOf(value: unknown, words = new Set<string>()): Set<string> {
  if (typeof value === "string" && distinctive(value)) words.add(value);
  else if (Array.isArray(value)) for (const item of value) wordsOf(item, words);
  else if (typeof value === "object" && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key === "description" || key === "title") continue;
      if (distinctive(key)) words.add(key);
      wordsOf(member, words);
    }
  }
  return words;
}

const standard = (names: string[]) => entryOf({ label: "", from: "messaging-events/standard", names });

/**
 * Per type: its `$id`, and the words of its schema that no other type's schema holds and the code
 * every object shares does not hold either (as found in the bundle of `receiptContent`, whose
 * schema has no word of its own).
 */
const markers = await (async () => {
  const files = jsonSchemaFiles();
  const words = new Map(eventTypes.map((type) => [type, wordsOf(files.get(`${type}.json`))]));
  const shared = (await bundle(standard(["receiptContent"]))).code;
  return new Map(
    eventTypes.map((type) => {
      const own = [...words.get(type)!].filter(
        (word) =>
          !shared.includes(word) &&
          eventTypes.every((other) => other === type || !words.get(other)!.has(word)),
      );
      return [type, [`json-schema:${type}"`, ...own]] as const;
    }),
  );
})();

const report: [string, number, number][] = [];

afterAll(() => {
  const width = Math.max(...report.map(([name]) => name.length));
  console.log(
    `\nmessaging-events/standard bundle sizes (esbuild --minify, gzip -9), budget for one type ${kb(ONE_BUDGET)}\n${report
      .map(
        ([name, min, gz]) =>
          `  ${name.padEnd(width)}  ${kb(min).padStart(9)} min  ${kb(gz).padStart(9)} min+gzip`,
      )
      .join("\n")}`,
  );
});

describe("tree-shaking of messaging-events/standard", () => {
  it("finds words of their own for most types", () => {
    const withWords = eventTypes.filter((type) => markers.get(type)!.length > 1);
    expect(withWords.length).toBeGreaterThan(15);
  });

  it.each(eventTypes)("%s alone holds no other type, no Zod and no error class", async (type) => {
    const name = nameOf(type);
    const { code, minified, gzipped } = await bundle(standard([name]));
    report.push([name, minified, gzipped]);
    expect(code).toContain('"~standard"');
    expect(code.includes(`json-schema:${type}"`), `${type}'s JSON Schema is missing`).toBe(true);
    for (const [other, words] of markers) {
      if (other === type) continue;
      for (const word of words)
        expect(code.includes(word), `${other} (${word}) leaked into ${name}`).toBe(false);
    }
    expect(code.includes("_zod"), "zod").toBe(false);
    expect(code.includes("EventValidationError"), "the error class").toBe(false);
    if (type === "s.message.text") expect(gzipped).toBeLessThanOrEqual(ONE_BUDGET);
  });

  it("eventSchema, webhookPayloadSchema and everything: no Zod, within budget", async () => {
    for (const names of [["eventSchema"], ["webhookPayloadSchema"]]) {
      const { code, minified, gzipped } = await bundle(standard(names));
      report.push([names.join(", "), minified, gzipped]);
      expect(code.includes("_zod"), "zod").toBe(false);
    }
    const all = await bundle(standard([]));
    report.push(['import * from "messaging-events/standard"', all.minified, all.gzipped]);
    expect(all.code.includes("_zod"), "zod").toBe(false);
    expect(all.gzipped).toBeLessThanOrEqual(ALL_BUDGET);
  });
});
