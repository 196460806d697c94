/**
 * `npm run bench`: content validation throughput of the library against Ajv compiled from the
 * library's own generated JSON Schema, on a realistic mix of valid content of every type and on a
 * mix of invalid content, measured in the same run. Ratios are library ÷ Ajv: above 1 is faster.
 */
import fc from "fast-check";
import {
  type EventType,
  eventContentSchemas,
  eventTypes,
  safeParseEvent,
  safeParseEventContent,
} from "../src/events/index.js";
import { compileShippedSchemas } from "../test/support/ajv.js";
import { mutated } from "../test/support/mutations.js";
import { validContent } from "../test/support/validContent.js";
import { dispatchCase, dispatchSummary, printDispatchCase } from "./dispatch.js";
import { type CaseResult, printCase, runCase } from "./harness.js";
import { printServerCase, serverCase, serverSummary } from "./server.js";
import { forgedBodyCase, printForgedBodyCase, webhookCases, webhookSummary } from "./webhooks.js";

const PER_TYPE = 30;
const ajv = compileShippedSchemas();

interface Item {
  readonly type: EventType;
  readonly content: unknown;
}

// A fixed seed: every run measures the same inputs.
const validMix: Item[] = eventTypes.flatMap((type) =>
  fc.sample(validContent[type], { numRuns: PER_TYPE, seed: 20261122 }).map((content) => ({ type, content })),
);
const invalidMix: Item[] = eventTypes.flatMap((type) =>
  fc
    .sample(validContent[type].chain(mutated), { numRuns: PER_TYPE * 10, seed: 20261122 })
    .filter((content) => !safeParseEventContent(type, content).success)
    .slice(0, PER_TYPE)
    .map((content) => ({ type, content })),
);
for (const [items, valid] of [
  [validMix, true],
  [invalidMix, false],
] as const) {
  for (const { type, content } of items) {
    if (ajv.content(type)(content) !== valid || safeParseEventContent(type, content).success !== valid) {
      throw new Error(`benchmark input disagrees: ${type} ${JSON.stringify(content)}`);
    }
  }
}

const validators = new Map(eventTypes.map((type) => [type, ajv.content(type)]));
const count = (items: readonly Item[], check: (item: Item) => boolean) => () => {
  let passed = 0;
  for (const item of items) if (check(item)) passed++;
  return passed;
};

const results: CaseResult[] = [];
for (const [label, items] of [
  ["Valid mix, every type", validMix],
  ["Invalid mix, near misses of every type", invalidMix],
] as const) {
  results.push(
    runCase(`${label}: content by type`, items.length, [
      {
        name: "safeParseEventContent (library)",
        run: count(items, (item) => safeParseEventContent(item.type, item.content).success),
      },
      {
        name: "schema.safeParse (zod only)",
        run: count(items, (item) => eventContentSchemas[item.type].safeParse(item.content).success),
      },
      {
        name: "Ajv on the generated JSON Schema (baseline)",
        run: count(items, (item) => validators.get(item.type)!(item.content)),
      },
    ]),
  );
  const events = items.map((item) => ({ type: item.type, content: item.content }));
  results.push(
    runCase(`${label}: whole events { type, content }`, events.length, [
      {
        name: "safeParseEvent (library)",
        run: count(events as Item[], (event) => safeParseEvent(event).success),
      },
      { name: "Ajv on event.json (baseline)", run: count(events as Item[], (event) => ajv.event(event)) },
    ]),
  );
}

console.log(
  `messaging-events benchmark on Node ${process.versions.node}: ${validMix.length} valid and ${invalidMix.length} invalid contents`,
);
for (const result of results) printCase(result);
const webhooks = await webhookCases();
for (const result of webhooks) printCase(result);

const headline = results[0]!.results[0]!.ratio;
console.log(
  `\nValid-mix ratio (safeParseEventContent ÷ Ajv): ${headline.toFixed(2)} (target for a later pass: ≥ 1.00)`,
);
console.log(webhookSummary(webhooks[0]!));
printForgedBodyCase(await forgedBodyCase());
const server = await serverCase();
printServerCase(server);
console.log(serverSummary(server));
const dispatch = await dispatchCase();
printDispatchCase(dispatch);
console.log(dispatchSummary(dispatch));
// The command line's validate throughput and its memory on a 1 GiB stream (BENCH_CLI_BYTES to change).
await import("./cli.js");
