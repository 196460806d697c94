/**
 * Importing one thing pulls in only what it needs: esbuild bundles a single import from the built
 * package, and the output holds no other event's schema. The size budgets are asserted and every
 * figure is printed. Entries are written as scripts/sizes.ts writes them, so a figure printed here
 * for an import the README's table lists is the same figure.
 */
import { afterAll, describe, expect, it } from "vitest";
import { entryOf } from "../../scripts/sizes.js";
import { type EventType, eventTypes } from "../../src/events/index.js";
import { bundle, kb, schemaMarkers } from "../support/bundle.js";

const markers = schemaMarkers;

const exportName = (type: EventType): string => {
  const [first, ...rest] = type.slice(2).split(".");
  return `${first}${rest.map((part) => part[0]!.toUpperCase() + part.slice(1)).join("")}Content`;
};

/** The entry that imports `names` from the events subpath (all of it when empty). */
const events = (names: string[]) => entryOf({ label: "", from: "messaging-events/events", names });

const ONE_SCHEMA_BUDGET = 7 * 1024;
const ALL_SCHEMAS_BUDGET = 16 * 1024;
// The compiled validators, with the library's messages, limits and errors: one type, and all 32
// (`safeParseEventContent` alone, then with `safeParseEvent`). The aims are 2.5 KB and 8 KB; these
// budgets hold what was measured when the issues gained their parameters, so that nothing grows
// unnoticed (the bundle table of docs/performance.md gives the figures). Members are compared inline, which is
// several times faster than a lookup and costs some of these bytes, as do counting what an issue
// leaves unread (so that a near miss needs no second walk of the whole value), writing the
// commonest issues without a function per issue, an issue's path, label and pointer in one pass,
// optional members stored at each site rather than by one shared helper, and a test per object
// that skips its copy once the value has an issue. What every validator shares (the error class,
// the exact walk of the limits, the message helpers) is 2.6 KB by itself: the benchmark's size
// section measures it.
const COMPILED_ONE_BUDGET = 4.6 * 1024;
const COMPILED_ALL_BUDGET = 10 * 1024;
const COMPILED_ALL_WITH_EVENTS_BUDGET = 10.3 * 1024;
// Everything: the schemas, the compiled validators and the guards side by side.
const EVERYTHING_BUDGET = 26 * 1024;
const report: [string, number, number][] = [];

afterAll(() => {
  const width = Math.max(...report.map(([name]) => name.length));
  console.log(
    `\nBundle sizes (esbuild --minify, gzip -9), budgets: one content schema ${kb(ONE_SCHEMA_BUDGET)}, all schemas with eventSchema ${kb(ALL_SCHEMAS_BUDGET)}\n${report
      .map(
        ([name, min, gz]) =>
          `  ${name.padEnd(width)}  ${kb(min).padStart(9)} min  ${kb(gz).padStart(9)} min+gzip`,
      )
      .join("\n")}`,
  );
});

describe("tree-shaking of messaging-events/events", () => {
  it("messageTextContent alone holds no other event's schema, within the one-schema budget", async () => {
    const { code, gzipped, minified } = await bundle(events(["messageTextContent"]));
    report.push(["messageTextContent", minified, gzipped]);
    expect(code).toContain("body");
    expect(code.includes("OUTSIDE_BUSINESS_HOURS")).toBe(false);
    for (const [type, marker] of Object.entries(markers)) {
      expect(code.includes(marker), `${type} leaked in`).toBe(false);
    }
    expect(gzipped).toBeLessThanOrEqual(ONE_SCHEMA_BUDGET);
  });

  it.each(eventTypes.filter((type) => type !== "s.message.text"))(
    "%s alone holds no other event's schema",
    async (type) => {
      const name = exportName(type);
      const { code, gzipped, minified } = await bundle(events([name]));
      report.push([name, minified, gzipped]);
      const own = markers[type];
      if (own) expect(code.includes(own), `${type} is missing its own marker`).toBe(true);
      for (const [other, marker] of Object.entries(markers)) {
        if (other !== type) expect(code.includes(marker), `${other} leaked into ${type}`).toBe(false);
      }
    },
  );

  it("all schemas with eventSchema and the parse functions stay within budget", async () => {
    const { gzipped, minified } = await bundle(events(["eventSchema", "eventContentSchemas"]));
    report.push(["eventSchema + eventContentSchemas", minified, gzipped]);
    expect(gzipped).toBeLessThanOrEqual(ALL_SCHEMAS_BUDGET);
    const all = await bundle(events([]));
    report.push(['import * from "messaging-events/events"', all.minified, all.gzipped]);
    expect(all.gzipped).toBeLessThanOrEqual(EVERYTHING_BUDGET);
    const everything = await bundle(entryOf({ label: "", from: "messaging-events", names: [] }));
    report.push(['import * from "messaging-events"', everything.minified, everything.gzipped]);
  });

  it("safeParseEventContent and safeParseEvent run compiled code: no zod, within budget", async () => {
    const alone = await bundle(events(["safeParseEventContent"]));
    report.push(["safeParseEventContent", alone.minified, alone.gzipped]);
    expect(alone.gzipped).toBeLessThanOrEqual(COMPILED_ALL_BUDGET);
    const { code, gzipped, minified } = await bundle(events(["safeParseEventContent", "safeParseEvent"]));
    report.push(["safeParseEventContent + safeParseEvent", minified, gzipped]);
    expect(code.includes("_zod"), "zod").toBe(false);
    expect(gzipped).toBeLessThanOrEqual(COMPILED_ALL_WITH_EVENTS_BUDGET);
  });

  // Eight types that span the generated code (JSON members, enumerations, unions, arrays, dates,
  // minimum lengths), each bundled alone: a bundle per type for all 32 would double this file's time.
  it.each([
    "s.message.text",
    "s.message.media",
    "s.message.action",
    "s.presence",
    "s.room.membership",
    "s.delete",
    "s.timer",
    "s.support.delegate",
  ] as const)("the compiled parser of %s holds no zod and no other type's rules", async (type) => {
    const name = `safeParse${exportName(type)[0]!.toUpperCase()}${exportName(type).slice(1)}`;
    const { code, gzipped, minified } = await bundle(events([name]));
    report.push([name, minified, gzipped]);
    expect(code.includes("_zod"), "zod").toBe(false);
    const own = markers[type];
    if (own) expect(code.includes(own), `${type} is missing its own marker`).toBe(true);
    for (const [other, marker] of Object.entries(markers)) {
      if (other !== type) expect(code.includes(marker), `${other} leaked into ${name}`).toBe(false);
    }
    if (type === "s.message.text") expect(gzipped).toBeLessThanOrEqual(COMPILED_ONE_BUDGET);
  });

  it("the event type list and the JSON pointer helper need no zod at all", async () => {
    for (const name of ["eventTypes", "isEventType", "toJsonPointer"]) {
      const { code, gzipped, minified } = await bundle(events([name]));
      report.push([name, minified, gzipped]);
      expect(code.includes("$ZodType"), `${name} pulled in zod`).toBe(false);
      expect(gzipped).toBeLessThan(1024);
    }
  });
});
