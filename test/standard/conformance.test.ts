/**
 * The Standard Schema objects answer as the library's own functions do. For every content type,
 * `~standard.validate` against `safeParse<Name>Content`, on every conformance case, on generated
 * valid contents, near misses and random mutations, and on hostile values: success exactly when
 * there are no issues, the same copy on success, and on failure the same issues (code, members,
 * order) located from the content instead of the event: the path without its leading `content`,
 * the pointer without `/content`, and the message naming the same place from the content
 * (`format must be…` for `content.format must be…`). `eventSchema` and `webhookPayloadSchema` answer exactly as
 * `safeParseEvent` and `safeParseWebhookPayload` do, paths and all.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as events from "../../src/events/index.js";
import {
  type EventType,
  type EventValidationIssue,
  eventContentSchemas,
  eventTypes,
  type SafeParseResult,
  safeParseEvent,
} from "../../src/events/index.js";
import { MAX_POINTER_LENGTH } from "../../src/internal/issue.js";
import type { StandardResult } from "../../src/standard/index.js";
import * as standard from "../../src/standard/index.js";
import { safeParseWebhookPayload } from "../../src/webhooks/index.js";
import { webhookEventTypes } from "../../src/webhooks/webhookEventTypes.js";
import { conformanceCases } from "../conformance/cases.js";
import {
  cycle,
  hugeSparseArray,
  megabyte,
  megabyteKey,
  nested,
  readTraps,
  revokedProxy,
  sharedGraph,
  throwingProxy,
} from "../support/compiled/hostileValues.js";
import { canonical } from "../support/compiled/snapshot.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

type Validate = (value: unknown) => StandardResult<unknown>;
type Parse = (value: unknown) => SafeParseResult<unknown>;

/** Each type's Standard Schema object and `safeParse…Content` function, by the name of its Zod schema. */
const pairs = new Map<EventType, { name: string; validate: Validate; parse: Parse }>();
for (const type of eventTypes) {
  const name = Object.entries(events).find(([, value]) => value === eventContentSchemas[type])?.[0];
  if (name === undefined) throw new Error(`no Zod schema export for ${type}`);
  const parse = (events as Record<string, unknown>)[`safeParse${name[0]!.toUpperCase()}${name.slice(1)}`];
  const schema = (standard as Record<string, unknown>)[name] as { "~standard": { validate: Validate } };
  pairs.set(type, { name, validate: schema["~standard"].validate, parse: parse as Parse });
}

/**
 * What `validate` must answer, issue by issue, for what `safeParse…Content` answered: the same
 * issue (every member, parameters included) located from the content. The path loses its leading
 * `content` and the pointer its `/content`; a message names the place from the content
 * (`content.format must…` becomes `format must…`, `content[0]` becomes `[0]`, `content` alone
 * `the value`). Two cuts depend on where the path starts, and are checked by their shape: a pointer
 * longer than 256 characters is cut to its nearest enclosing value (from the content, up to 8
 * characters later), and the label of a path of more than 8 segments keeps 3 at each end with a
 * count of the others between.
 */
function expectFromContent(actual: EventValidationIssue, issue: EventValidationIssue, what: string): void {
  const { path, pointer, message, ...rest } = issue;
  expect(path[0], "a content issue starts at content").toBe("content");
  expect(pointer === "/content" || pointer.startsWith("/content/")).toBe(true);
  const relativePath = path.slice(1);
  const relativePointer = pointer.slice("/content".length);
  let expectedPath: readonly (string | number)[] = relativePath;
  let expectedPointer = relativePointer;
  if (pointer.length > MAX_POINTER_LENGTH - "/content".length) {
    // Cut from the event: from the content, the cut may fall deeper.
    expect(actual.path.slice(0, relativePath.length), what).toStrictEqual(relativePath);
    expect(
      actual.pointer.startsWith(relativePointer) && actual.pointer.length <= MAX_POINTER_LENGTH,
      what,
    ).toBe(true);
    expectedPath = actual.path;
    expectedPointer = actual.pointer;
  }
  let expectedMessage: string;
  const deep = /^content((?:\.[A-Za-z_$][\w$]*|\[[^\]]*\]){2})…\((\d+) more\)…(.*)$/s.exec(message);
  if (deep !== null) {
    const [, head, more, after] = deep;
    // From the content, the head gains the segment the count no longer holds.
    const shape = new RegExp(
      `^${literal(head!.replace(/^\./, ""))}${SEGMENT}…\\(${Number(more) - 1} more\\)…${literal(after!)}$`,
      "s",
    );
    expect(actual.message, what).toMatch(shape);
    expectedMessage = actual.message;
  } else if (message.startsWith("content.")) expectedMessage = message.slice("content.".length);
  else if (message.startsWith("content[")) expectedMessage = message.slice("content".length);
  else {
    expect(message.startsWith("content "), message).toBe(true);
    expectedMessage = `the value${message.slice("content".length)}`;
  }
  expect(actual, what).toStrictEqual({
    ...rest,
    path: expectedPath,
    pointer: expectedPointer,
    message: expectedMessage,
  });
}

/** A label segment in a regular expression: `.name` or `[…]`. */
const SEGMENT = String.raw`(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])`;
/** `text` matched literally in a regular expression. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The Standard result `validate` must give for what `safeParse…` answered, paths and all. */
function expected(result: SafeParseResult<unknown>) {
  return result.success ? { value: canonical(result.data) } : { issues: [...result.error.issues] };
}

function comparable(result: StandardResult<unknown>) {
  expect(Object.keys(result), "value or issues, not both").toHaveLength(1);
  return result.issues === undefined ? { value: canonical(result.value) } : { issues: [...result.issues] };
}

function checkContent(type: EventType, content: unknown): boolean {
  const { validate, parse, name } = pairs.get(type)!;
  const reference = parse(content);
  const result = validate(content);
  const what = `${name} on ${type}`;
  expect(Object.keys(result), "value or issues, not both").toHaveLength(1);
  if (reference.success) {
    expect(result.issues, what).toBeUndefined();
    if (result.issues === undefined)
      expect(canonical(result.value), what).toStrictEqual(canonical(reference.data));
  } else {
    const { issues } = reference.error;
    expect(result.issues?.length, what).toBe(issues.length);
    for (const [index, issue] of issues.entries()) expectFromContent(result.issues![index]!, issue, what);
  }
  return reference.success;
}

describe("each content type's Standard Schema object answers as its safeParse…Content function", () => {
  it("has an object for each of the 32 types, named like its Zod schema", () => {
    expect(pairs.size).toBe(32);
    expect(Object.keys(standard).sort()).toEqual(
      [...[...pairs.values()].map(({ name }) => name), "eventSchema", "webhookPayloadSchema"].sort(),
    );
  });

  it(`on the ${conformanceCases.length} conformance cases, with their verdicts and issues`, () => {
    for (const row of conformanceCases) {
      const { validate } = pairs.get(row.type)!;
      expect(checkContent(row.type, row.content), `${row.type}: ${row.name}`).toBe(row.valid);
      const result = validate(row.content);
      if (row.expect) {
        // The case's own issue, located from the content.
        const pointer = row.expect.pointer.slice("/content".length);
        expect(result.issues, `${row.type}: ${row.name}`).toContainEqual(
          expect.objectContaining({ code: row.expect.code, pointer }),
        );
      }
    }
  });

  describe.each(eventTypes)("%s", (type) => {
    it("on generated valid contents, near misses and random mutations", () => {
      fc.assert(
        fc.property(validContent[type], (content) => {
          expect(checkContent(type, content)).toBe(true);
        }),
        { numRuns: 30 },
      );
      fc.assert(
        fc.property(validContent[type].chain(nearMiss), (content) => {
          checkContent(type, content);
        }),
        { numRuns: 60 },
      );
      fc.assert(
        fc.property(validContent[type].chain(mutated), (content) => {
          checkContent(type, content);
        }),
        { numRuns: 20 },
      );
    });
  });

  it("on anything fast-check makes, for every type", () => {
    fc.assert(
      fc.property(fc.constantFrom(...eventTypes), fc.anything({ withNullPrototype: true }), (type, value) => {
        checkContent(type, value);
      }),
      { numRuns: 400 },
    );
  });
});

describe("validate returns for hostile values, as safeParse… does", () => {
  // Values whose walk is cut by a limit cost the same for every type: four types that span JSON
  // members, strict objects, unions and any JSON value are enough for them.
  const some: readonly EventType[] = ["s.message.text", "s.message.action", "s.timer", "s.delete"];
  const hostile: [string, () => unknown, readonly EventType[]][] = [
    ...readTraps.map((trap): [string, () => unknown, readonly EventType[]] => [
      `a proxy whose ${trap} trap throws`,
      () => throwingProxy(trap, { body: "x" }),
      eventTypes,
    ]),
    ...readTraps.map((trap): [string, () => unknown, readonly EventType[]] => [
      `a member that is a proxy whose ${trap} trap throws`,
      () => ({ body: "x", annotations: throwingProxy(trap, { a: 1 }) }),
      eventTypes,
    ]),
    ["a revoked proxy", revokedProxy, eventTypes],
    ["a member that is a revoked proxy", () => ({ body: "x", annotations: revokedProxy() }), eventTypes],
    [
      "a throwing getter",
      () =>
        Object.defineProperty({}, "body", {
          enumerable: true,
          get: () => {
            throw new Error("getter");
          },
        }),
      eventTypes,
    ],
    ["a cycle", () => ({ body: "x", annotations: cycle() }), eventTypes],
    ["a megabyte string", () => ({ body: megabyte, format: megabyte }), eventTypes],
    ["a megabyte key", () => ({ body: "x", [megabyteKey]: 1 }), eventTypes],
    ["100,000 nested objects", () => ({ body: "x", annotations: nested(100_000) }), some],
    ["100,000 nested arrays", () => nested(100_000, true), some],
    ["a shared graph of 2^40 paths", () => ({ body: "x", annotations: sharedGraph(40) }), some],
    ["a huge sparse array", hugeSparseArray, some],
  ];

  it.each(hostile)("%s", (_name, make, types) => {
    for (const type of types) {
      const value = make();
      const started = performance.now();
      expect(() => pairs.get(type)!.validate(value)).not.toThrow();
      // A guard against hangs, not a benchmark (2^40 paths unbounded would never end): the limits
      // bound the cost, well under a second on an idle machine.
      expect(performance.now() - started, type).toBeLessThan(5000);
      checkContent(type, value);
    }
  });
});

const validEvent = fc
  .constantFrom(...eventTypes)
  .chain((type) => validContent[type].map((content) => ({ type, content })));

const validPayload = fc.constantFrom(...webhookEventTypes).chain((type) =>
  fc.record(
    {
      type: fc.constant(type),
      version: fc.constant(2),
      content: type in validContent ? validContent[type as EventType] : fc.jsonValue(),
      roomId: fc.string({ maxLength: 6 }),
      recipients: fc.array(fc.record({ id: fc.string({ maxLength: 6 }) }), { maxLength: 2 }),
    },
    { requiredKeys: ["type", "version", "content"] },
  ),
);

describe("eventSchema and webhookPayloadSchema answer as safeParseEvent and safeParseWebhookPayload", () => {
  const cases = [
    [
      "eventSchema",
      standard.eventSchema["~standard"].validate as Validate,
      safeParseEvent as Parse,
      validEvent,
    ],
    [
      "webhookPayloadSchema",
      standard.webhookPayloadSchema["~standard"].validate as Validate,
      safeParseWebhookPayload as Parse,
      validPayload,
    ],
  ] as const;

  it.each(cases)(
    "%s, on valid values, near misses, mutations and anything",
    (_name, validate, parse, valid) => {
      const check = (value: unknown): void => {
        expect(comparable(validate(value))).toStrictEqual(expected(parse(value)));
      };
      fc.assert(
        fc.property(valid, (value) => {
          expect(validate(value).issues).toBeUndefined();
          check(value);
        }),
        { numRuns: 100 },
      );
      fc.assert(fc.property(valid.chain(nearMiss), check), { numRuns: 200 });
      fc.assert(fc.property(valid.chain(mutated), check), { numRuns: 100 });
      fc.assert(fc.property(fc.anything({ withNullPrototype: true }), check), { numRuns: 200 });
      for (const trap of readTraps) check(throwingProxy(trap, {}));
      check(revokedProxy());
      check(nested(100_000));
    },
  );

  it("keeps the event's paths: a content issue starts at content", () => {
    const result = standard.eventSchema["~standard"].validate({
      type: "s.message.text",
      content: { body: 1 },
    });
    expect(result.issues?.[0]).toMatchObject({ path: ["content", "body"], pointer: "/content/body" });
  });
});
