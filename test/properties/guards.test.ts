/**
 * The guards (`isEventContent`, `isEvent` and the per-type `is…Content`) give the verdict of the
 * `safeParse…` functions on every input, and never throw: on every conformance case, on generated
 * valid content, near misses and random mutations of every type, on whole events, under limits
 * set around each value's own size, and on hostile values (proxies whose traps throw, getters,
 * cycles, huge and sparse arrays, a polluted Object.prototype), where anything that cannot be read
 * is invalid. The exact walk a guard falls back on gives `findLimitBreach`'s verdict.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as events from "../../src/events/index.js";
import {
  type EventType,
  eventContentSchemas,
  eventTypes,
  isEvent,
  isEventContent,
  safeParseEvent,
  safeParseEventContent,
  type ValidationLimits,
} from "../../src/events/index.js";
import { exceedsLimits, findLimitBreach } from "../../src/internal/findLimitBreach.js";
import { normalizeLimits } from "../../src/internal/limits.js";
import { conformanceCases } from "../conformance/cases.js";
import { heavy, hostileOptions, light } from "../support/compiled/hostileInputs.js";
import { changingMember, nested, sharedGraph } from "../support/compiled/hostileValues.js";
import { limitsNear } from "../support/compiled/limitsNear.js";
import { pinned } from "../support/compiled/pinnedInputs.js";
import { polluted } from "../support/compiled/resultChecks.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

type Guard = (value: unknown, limits?: ValidationLimits) => boolean;

/** The per-type guards (`isMessageTextContent` for `messageTextContent`), by type. */
const perType = new Map<EventType, { readonly name: string; readonly is: Guard }>();
for (const type of eventTypes) {
  const schemaName = Object.entries(events).find(([, value]) => value === eventContentSchemas[type])?.[0];
  const name = `is${schemaName!.charAt(0).toUpperCase()}${schemaName!.slice(1)}`;
  const is = (events as Record<string, unknown>)[name];
  if (typeof is === "function") perType.set(type, { name, is: is as Guard });
}

// The limits are typed; a hostile caller passes anything.
const asLimits = (limits: unknown) => limits as ValidationLimits | undefined;

/** Every guard of content of `type` gives `safeParseEventContent`'s verdict on `make()`. */
function expectContentVerdict(type: EventType, make: () => unknown, limits?: unknown): void {
  const expected = safeParseEventContent(type, make(), asLimits(limits)).success;
  expect(isEventContent(type, make(), asLimits(limits)), `isEventContent("${type}")`).toBe(expected);
  const single = perType.get(type)!;
  expect(single.is(make(), asLimits(limits)), single.name).toBe(expected);
}

/** `isEvent` gives `safeParseEvent`'s verdict on `make()`. */
function expectEventVerdict(make: () => unknown, limits?: unknown): void {
  expect(isEvent(make(), asLimits(limits)), "isEvent").toBe(safeParseEvent(make(), asLimits(limits)).success);
}

describe("the guards", () => {
  it("exist for every type", () => {
    expect(perType.size).toBe(eventTypes.length);
  });

  it.each(conformanceCases.map((row) => [`${row.type}: ${row.name}`, row] as const))(
    "answer as safeParse on the conformance case %s",
    (_name, row) => {
      expect(isEventContent(row.type, row.content)).toBe(row.valid);
      expectContentVerdict(row.type, () => row.content);
      expect(isEvent({ type: row.type, content: row.content })).toBe(row.valid);
    },
  );

  it.each(pinned)("answer as safeParse on the pinned input: %s", (_name, type, value, limits) => {
    if (type === "event") expectEventVerdict(() => value, limits);
    else {
      expectContentVerdict(type, () => value, limits);
      expectEventVerdict(() => ({ type, content: value }), limits);
    }
  });

  describe.each(eventTypes)("%s", (type) => {
    it("answer as safeParse on 100 valid contents, 200 near misses and 100 mutations", () => {
      const content = fc.oneof(
        { weight: 1, arbitrary: validContent[type] },
        { weight: 2, arbitrary: validContent[type].chain(nearMiss) },
        { weight: 1, arbitrary: validContent[type].chain(mutated) },
      );
      fc.assert(
        fc.property(content, (value) => {
          expectContentVerdict(type, () => value);
          expectEventVerdict(() => ({ type, content: value }));
        }),
        { numRuns: 400 },
      );
    });
  });

  it("answer as safeParse on 1500 whole events, unknown types and values that are no event", () => {
    const anyValid = fc.oneof(
      ...eventTypes.map((type) => validContent[type].map((content) => ({ type: type as string, content }))),
    );
    const event = fc.oneof(
      anyValid,
      anyValid.chain(nearMiss),
      anyValid.chain(mutated),
      fc.record({ type: fc.oneof(fc.string(), fc.constant("s.message.delete")), content: fc.jsonValue() }),
      fc.anything(),
    );
    fc.assert(
      fc.property(event, (value) => expectEventVerdict(() => value)),
      { numRuns: 1500 },
    );
  });

  it("say false for a type that is not one of the 32, as safeParseEventContent fails", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), fc.jsonValue(), (type, content) => {
        fc.pre(!eventTypes.includes(type as EventType));
        expect(isEventContent(type, content)).toBe(false);
        expect(isEvent({ type, content })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the guards keep the limits as safeParse does", () => {
  const typed = fc
    .constantFrom(...eventTypes)
    .chain((type) =>
      fc.tuple(
        fc.constant(type),
        fc.oneof(validContent[type], validContent[type].chain(nearMiss), validContent[type].chain(mutated)),
      ),
    );
  const deep = fc
    .record({
      depth: fc.integer({ min: 0, max: 8 }),
      width: fc.integer({ min: 1, max: 3 }),
      arrays: fc.boolean(),
    })
    .map(({ depth, width, arrays }) => {
      let value: unknown = "leaf";
      for (let level = 0; level < depth; level++)
        value = arrays ? Array.from({ length: width }, () => value) : { [`k${level}`]: value, w: width };
      return value;
    });
  const limits: fc.Arbitrary<unknown> = fc.oneof(
    fc.record(
      { maxDepth: fc.integer({ min: 1, max: 6 }), maxNodes: fc.integer({ min: 1, max: 40 }) },
      { requiredKeys: [] },
    ),
    fc.constantFrom<unknown>(
      { maxDepth: 3 },
      { maxNodes: 5 },
      { maxDepth: 2.7, maxNodes: 5.5 },
      {},
      null,
      "x",
    ),
  );

  it("on 1500 contents, some nested deep or wide, under small limits", () => {
    const placed = fc.tuple(
      typed,
      deep,
      fc.constantFrom("asContent", "annotations", "extra", "none", "first"),
    );
    fc.assert(
      fc.property(placed, limits, ([[type, content], value, where], options) => {
        let input = content;
        if (where === "asContent") input = value;
        else if (
          where !== "none" &&
          typeof content === "object" &&
          content !== null &&
          !Array.isArray(content)
        ) {
          const key = where === "first" ? (Object.keys(content)[0] ?? "x") : where;
          input = { ...content, [key]: value };
        }
        expectContentVerdict(type, () => input, options);
        expectEventVerdict(() => ({ type, content: input }), options);
      }),
      { numRuns: 1500 },
    );
  });

  it("on 1500 values under limits set right at their size, counted two ways", () => {
    const unusual = fc.constantFrom(...eventTypes).chain((type) =>
      fc.tuple(
        fc.constant(type),
        validContent[type].chain((content) => nearMiss(content, ["protoKey", "inherited", "sparse"])),
      ),
    );
    const sized = fc
      .oneof(typed, unusual)
      .chain(([type, content]) =>
        fc.tuple(fc.constant(type), fc.constant(content), limitsNear(content), limitsNear({ type, content })),
      );
    fc.assert(
      fc.property(sized, ([type, content, contentLimits, eventLimits]) => {
        expectContentVerdict(type, () => content, contentLimits);
        expectEventVerdict(() => ({ type, content }), eventLimits);
      }),
      { numRuns: 1500 },
    );
  });

  it("the exact walk's verdict is findLimitBreach's", () => {
    const values = fc.oneof(fc.anything({ withSparseArray: true, withNullPrototype: true }), deep);
    const anyLimits = fc.record({
      maxDepth: fc.integer({ min: 1, max: 8 }),
      maxNodes: fc.integer({ min: 1, max: 60 }),
    });
    fc.assert(
      fc.property(values, anyLimits, (value, given) => {
        const checked = normalizeLimits(given);
        expect(exceedsLimits(value, checked)).toBe(findLimitBreach(value, checked) !== undefined);
      }),
      { numRuns: 2000 },
    );
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(exceedsLimits(cyclic, normalizeLimits(undefined))).toBe(true);
    expect(exceedsLimits(sharedGraph(30), normalizeLimits(undefined))).toBe(true);
    expect(exceedsLimits(nested(600), normalizeLimits(undefined))).toBe(true);
  });
});

/** Every guard on `make()`: never throws, and answers as its `safeParse…` function. */
function expectHostileVerdicts(make: () => unknown, limits?: unknown): void {
  for (const type of eventTypes) expectContentVerdict(type, make, limits);
  expectEventVerdict(make, limits);
  expectEventVerdict(() => ({ type: "s.message.text", content: make() }), limits);
}

describe("the guards on hostile input: never a throw, safeParse's verdict", () => {
  it.each(light)("%s", (_name, make) => {
    expectHostileVerdicts(make);
    // A value that cannot be read is not valid.
    expect(() => isEvent(make())).not.toThrow();
  });

  it.each(heavy)("%s", (_name, input) => {
    const start = performance.now();
    for (const type of ["s.message.text", "s.delete", "s.presence"] as const)
      expectContentVerdict(type, () => input);
    expectEventVerdict(() => ({ type: "s.message.text", content: input }));
    expect(performance.now() - start, "a hang").toBeLessThan(10_000);
  });

  it.each(hostileOptions)("limits: %s", (_name, options) => {
    for (const input of [
      { body: "x", annotations: { a: [1, 2, 3] } },
      { body: "x", annotations: nested(10) },
    ])
      expectHostileVerdicts(() => input, options);
  });

  it("getters are read once, in the validator's order: a getter that changes after its first read", () => {
    expectContentVerdict("s.message.text", () => changingMember("body", "x", 5));
    expectContentVerdict("s.message.text", () => changingMember("body", 5, "x"));
    expectContentVerdict("s.presence", () => changingMember("status", "AWAY", "BUSY"));
    expectContentVerdict("s.message.action", () => ({
      type: "boolean",
      body: "b",
      writeable: ["customer"],
      options: [changingMember("value", "true", "false", { label: "Yes" }), { label: "No", value: "false" }],
    }));
  });

  it("a proxy whose has trap throws fails where safeParse asks whether a missing member is there", () => {
    const has = (target: object) =>
      new Proxy(target, {
        has() {
          throw new Error("trap");
        },
      });
    expect(isEventContent("s.message.text", has({ body: "x" }))).toBe(false);
    expect(isEventContent("s.presence", has({ status: "AWAY" }))).toBe(true);
    expectContentVerdict("s.message.text", () => has({ body: "x" }));
    expectContentVerdict("s.presence", () => has({ status: "AWAY" }));
    expectContentVerdict("s.message.action", () => has({ type: "text", body: "b", writeable: ["customer"] }));
  });

  it("members added to Object.prototype are counted as safeParse counts them", () => {
    polluted("extra", { a: [1, 2] }, () => {
      for (const type of ["s.message.text", "s.presence", "s.delete"] as const) {
        const content =
          type === "s.message.text" ? { body: "x" } : type === "s.presence" ? { status: "AWAY" } : [1];
        expectContentVerdict(type, () => content);
        expectContentVerdict(type, () => content, { maxNodes: 4 });
        expectEventVerdict(() => ({ type, content }), { maxDepth: 2 });
      }
    });
  });

  it("never throws on anything, with anything as the type and the limits", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (type, value, limits) => {
        expect(typeof isEventContent(type, value, asLimits(limits))).toBe("boolean");
        expect(typeof isEvent(value, asLimits(limits))).toBe("boolean");
        for (const { is } of perType.values()) expect(typeof is(value, asLimits(limits))).toBe("boolean");
      }),
      { numRuns: 300 },
    );
  });
});
