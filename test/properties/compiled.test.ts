/**
 * The compiled validators answer exactly as the Zod schemas interpreted do. The public functions
 * (`safeParseEventContent`, `parseEventContent`, `safeParseEvent`, `parseEvent` and the per-type
 * `safeParse…Content` functions) are checked against the interpreted reference on every
 * generated value: the same verdict; on success the same `data` (deep, strict: the same members
 * present); on failure the same error code, event type, message, omitted count and issues (code,
 * path, pointer, message), in the same order. Where the value is JSON, Ajv on the shipped JSON
 * Schema gives the same verdict too. Every run draws new values (the seed is printed on failure).
 * What `data` is, and that it is isolated from the input, is checked in compiledData.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type EventType,
  eventTypes,
  parseEventContent,
  type SafeParseResult,
  safeParseEvent,
  safeParseEventContent,
  type ValidationLimits,
} from "../../src/events/index.js";
import { interpretEvent, interpretEventContent } from "../../src/events/interpretEvent.js";
import { asResult, checkContent, checkEvent, expectSame, perType } from "../support/compiled/contract.js";
import { limitsNear } from "../support/compiled/limitsNear.js";
import { pinned } from "../support/compiled/pinnedInputs.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

describe("compiled validators answer as the interpreted schemas do on pinned inputs", () => {
  it.each(pinned)("%s", (_name, type, value, limits) => {
    if (type === "event") checkEvent(value, limits);
    else checkContent(type, value, limits);
  });
});

const VALID_RUNS = 80;
const NEAR_MISS_RUNS = 140;
const MUTATED_RUNS = 40;

describe("compiled validators answer as the interpreted schemas do", () => {
  it("finds a per-type function for no type or for every type", () => {
    expect([0, eventTypes.length]).toContain(perType.size);
  });

  describe.each(eventTypes)("%s", (type) => {
    it(`on ${VALID_RUNS} valid contents`, () => {
      fc.assert(
        fc.property(validContent[type], (content) => {
          checkContent(type, content);
          expect(safeParseEventContent(type, content).success).toBe(true);
        }),
        { numRuns: VALID_RUNS },
      );
    });

    it(`on ${NEAR_MISS_RUNS} near misses by class and ${MUTATED_RUNS} random ones`, () => {
      fc.assert(
        fc.property(validContent[type].chain(nearMiss), (content) => checkContent(type, content)),
        { numRuns: NEAR_MISS_RUNS },
      );
      fc.assert(
        fc.property(validContent[type].chain(mutated), (content) => checkContent(type, content)),
        { numRuns: MUTATED_RUNS },
      );
    });
  });

  const anyValidEvent = fc.oneof(
    ...eventTypes.map((type) => validContent[type].map((content) => ({ type: type as string, content }))),
  );

  it("on 1500 whole events: valid, near misses inside and around them, and unknown types", () => {
    const event = fc.oneof(
      { weight: 1, arbitrary: anyValidEvent },
      { weight: 4, arbitrary: anyValidEvent.chain(nearMiss) },
      { weight: 1, arbitrary: anyValidEvent.chain(mutated) },
      {
        weight: 1,
        arbitrary: fc.record(
          {
            type: fc.oneof(fc.string(), fc.constant("s.message.delete")),
            content: fc.jsonValue({ maxDepth: 2 }),
          },
          { requiredKeys: [] },
        ),
      },
    );
    fc.assert(
      fc.property(event, (value) => checkEvent(value)),
      { numRuns: 1500 },
    );
  });

  it("on 500 unknown or non-string types given to safeParseEventContent", () => {
    const type = fc.oneof(
      fc.string(),
      fc.constantFrom(...eventTypes).chain((known) => nearMiss(known)),
      fc.anything({ maxDepth: 1 }),
    );
    fc.assert(
      fc.property(type, fc.jsonValue({ maxDepth: 1 }), (unknownType, content) => {
        const reference = interpretEventContent(unknownType, content);
        expectSame(safeParseEventContent(unknownType, content), reference, "safeParseEventContent");
        expectSame(
          asResult(() => parseEventContent(unknownType as EventType, content)),
          reference,
          "parseEventContent",
        );
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the reference's member order in data (what JSON.stringify writes) on 600 valid values", () => {
    const typedContent = fc
      .constantFrom(...eventTypes)
      .chain((type) => validContent[type].map((content) => ({ type, content })));
    fc.assert(
      fc.property(typedContent, ({ type, content }) => {
        const reference = interpretEventContent(type, content);
        const compiled = safeParseEventContent(type, content);
        expect(JSON.stringify(compiled.data)).toBe(JSON.stringify(reference.data));
      }),
      { numRuns: 600 },
    );
  });
});

/** Nested arrays and objects `depth` levels deep around a leaf. */
const nested = fc
  .record({
    depth: fc.integer({ min: 0, max: 8 }),
    width: fc.integer({ min: 1, max: 3 }),
    arrays: fc.boolean(),
  })
  .map(({ depth, width, arrays }) => {
    let value: unknown = "leaf";
    for (let level = 0; level < depth; level++) {
      value = arrays ? Array.from({ length: width }, () => value) : { [`k${level}`]: value, w: width };
    }
    return value;
  });

/** Small limits around the generated values' sizes, and option values that must fall back to defaults. */
const limits: fc.Arbitrary<ValidationLimits> = fc.oneof(
  fc.record(
    {
      maxDepth: fc.integer({ min: 1, max: 6 }),
      maxNodes: fc.integer({ min: 1, max: 40 }),
      maxIssues: fc.integer({ min: 1, max: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom<ValidationLimits>(
    { maxDepth: 3 },
    { maxNodes: 5 },
    { maxIssues: 2 },
    { maxIssues: 1 },
    { maxDepth: 0, maxNodes: -1, maxIssues: Number.NaN },
    { maxDepth: 2.7, maxNodes: 5.5, maxIssues: 1.9 },
    { maxDepth: 1e9, maxNodes: Number.POSITIVE_INFINITY },
    { maxIssues: "2" as unknown as number },
    {},
    null as unknown as ValidationLimits,
    "limits" as unknown as ValidationLimits,
  ),
);

describe("compiled validators keep the limits as the interpreted schemas do", () => {
  const typed = fc
    .constantFrom(...eventTypes)
    .chain((type) =>
      fc.tuple(
        fc.constant(type),
        fc.oneof(validContent[type], validContent[type].chain(nearMiss), validContent[type].chain(mutated)),
      ),
    );

  it("on 1200 contents, some nested deep or wide, under small limits", () => {
    // Deep values where JSON values are allowed (open content, annotations, extras) and where they are not.
    const placed = fc.tuple(
      typed,
      nested,
      fc.constantFrom("asContent", "annotations", "extra", "none", "firstMember"),
    );
    fc.assert(
      fc.property(placed, limits, ([[type, content], deep, where], options) => {
        let value = content;
        if (where === "asContent") value = deep;
        else if (
          where !== "none" &&
          typeof content === "object" &&
          content !== null &&
          !Array.isArray(content)
        ) {
          const key = where === "firstMember" ? (Object.keys(content)[0] ?? "x") : where;
          value = { ...content, [key]: deep };
        }
        checkContent(type, value, options);
        checkEvent({ type, content: value }, options);
      }),
      { numRuns: 1200 },
    );
  });

  it("on 1000 near misses under limits set right at their size (counted two ways)", () => {
    // Members that one walk sees and another may not: own `__proto__` keys, inherited members, holes.
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
        checkContent(type, content, contentLimits);
        checkEvent({ type, content }, eventLimits);
      }),
      { numRuns: 1000 },
    );
  });

  it("on 300 contents with many issues under maxIssues", () => {
    const many = fc.record({
      type: fc.constantFrom<EventType>("s.message.action", "s.message.action.invocation"),
      bad: fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), fc.string()), {
        minLength: 1,
        maxLength: 30,
      }),
      maxIssues: fc.integer({ min: 1, max: 5 }),
      extras: fc.dictionary(fc.string({ maxLength: 3 }), fc.constantFrom<unknown>(1, undefined, Number.NaN), {
        maxKeys: 4,
      }),
    });
    fc.assert(
      fc.property(many, ({ type, bad, maxIssues, extras }) => {
        const content =
          type === "s.message.action"
            ? { type: "select", body: 1, writeable: bad, options: bad, ...extras }
            : { value: bad, label: 1, ...extras };
        checkContent(type, content, { maxIssues });
        checkContent("s.message.text", { body: 1, ...extras, x: bad }, { maxIssues });
        checkEvent({ type, content, ...extras }, { maxIssues });
      }),
      { numRuns: 300 },
    );
  });
});

const boom = () => {
  throw new Error("trap");
};
const throwingTraps: ProxyHandler<object> = {
  get: boom,
  has: boom,
  ownKeys: boom,
  getPrototypeOf: boom,
  getOwnPropertyDescriptor: boom,
  isExtensible: boom,
};
const hostileKinds = [
  "throwingGetter",
  "trapObject",
  "trapArray",
  "revoked",
  "throwingIndex",
  "getTrapOnly",
  "ownKeysTrapOnly",
] as const;

/** The hostile value of a kind, made fresh (fast-check only sees the recipe). */
function hostile(kind: (typeof hostileKinds)[number], around: unknown): unknown {
  switch (kind) {
    case "throwingGetter":
      return Object.defineProperty({ ...(around as object) }, "body", { enumerable: true, get: boom });
    case "trapObject":
      return new Proxy({}, throwingTraps);
    case "trapArray":
      return new Proxy([], throwingTraps);
    case "revoked": {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }
    case "throwingIndex":
      return Object.defineProperty(["a"], 0, { enumerable: true, get: boom });
    case "getTrapOnly":
      return new Proxy({ ...(around as object) }, { get: boom });
    case "ownKeysTrapOnly":
      return new Proxy({ ...(around as object) }, { ownKeys: boom });
  }
}

/** Sets the member at a place chosen by `at` inside a copy of `content` (the root when there is none). */
function placeInside(content: unknown, at: number, value: unknown): unknown {
  const copy = structuredClone(content);
  const holders: { parent: Record<string | number, unknown>; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    for (const key of Object.keys(node)) {
      holders.push({ parent: node as Record<string, unknown>, key: Array.isArray(node) ? Number(key) : key });
      walk((node as Record<string, unknown>)[key]);
    }
  };
  walk(copy);
  if (holders.length === 0) return value;
  const { parent, key } = holders[at % holders.length]!;
  parent[key] = value;
  return copy;
}

describe("throwing getters and proxies: both return, and report the same unreadable place", () => {
  // Some hostile values are never touched (a `get` trap on an empty object): then both succeed.
  const unreadable = (result: SafeParseResult<unknown>) => {
    return {
      success: result.success,
      code: result.error?.code,
      issues: result.error?.issues.map(({ code, path }) => ({ code, path })),
    };
  };

  it("on 600 contents and events with one hostile value inside", () => {
    const recipe = fc.constantFrom(...eventTypes).chain((type) =>
      fc.record({
        type: fc.constant(type),
        content: validContent[type],
        kind: fc.constantFrom(...hostileKinds),
        at: fc.nat(),
        whole: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(recipe, ({ type, content, kind, at, whole }) => {
        const value = whole
          ? hostile(kind, content)
          : placeInside(content, at, hostile(kind, { value: "v", label: "l", body: "b" }));
        let compiled: SafeParseResult<unknown> | undefined;
        expect(() => {
          compiled = safeParseEventContent(type, value);
        }).not.toThrow();
        const reference = interpretEventContent(type, value);
        expect(unreadable(compiled!)).toStrictEqual(unreadable(reference));
        const single = perType.get(type);
        if (single) expect(unreadable(single.parse(value))).toStrictEqual(unreadable(reference));
        const event = { type, content: value };
        expect(unreadable(safeParseEvent(event))).toStrictEqual(unreadable(interpretEvent(event)));
        const hostileEvent = hostile(kind, event);
        expect(unreadable(safeParseEvent(hostileEvent))).toStrictEqual(
          unreadable(interpretEvent(hostileEvent)),
        );
      }),
      { numRuns: 600 },
    );
  });

  it("with hostile limits options", () => {
    for (const kind of hostileKinds) {
      const options = hostile(kind, { maxDepth: 3 }) as ValidationLimits;
      const content = { body: "b", annotations: { a: [[[1]]] } };
      expectSame(
        safeParseEventContent("s.message.text", content, options),
        interpretEventContent("s.message.text", content, options),
        kind,
      );
      expectSame(
        safeParseEvent({ type: "s.message.text", content }, options),
        interpretEvent({ type: "s.message.text", content }, options),
        kind,
      );
    }
  });
});
