/**
 * What `data` is, whatever the input: on success, a fresh copy of the validated content, made of
 * plain objects (with `Object.prototype`) and arrays with only own data members, sharing no object
 * with the input and holding exactly the values that were validated, so that later changes to the
 * input, or getters and proxies in it, cannot reach it. Strings, numbers, booleans and `null` are
 * themselves. Open objects keep their additional members; members an object inherits through its
 * prototype are read as the Zod schemas read them and become own members of the copy. The input
 * itself is never changed. Checked through every public function that returns `data`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type EventType,
  eventTypes,
  parseEvent,
  parseEventContent,
  type SafeParseResult,
  safeParseEvent,
  safeParseEventContent,
} from "../../src/events/index.js";
import { asResult, perType } from "../support/compiled/contract.js";
import { canonical, findNonPlainData, reachableObjects, snapshot } from "../support/compiled/snapshot.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

/** The public functions that return `data`, for one content of one type. */
function everyParse(type: EventType, content: unknown): SafeParseResult<unknown>[] {
  const results = [
    safeParseEventContent(type, content),
    asResult(() => parseEventContent(type, content)),
    safeParseEvent({ type, content }),
    asResult(() => parseEvent({ type, content })),
  ];
  const single = perType.get(type);
  if (single) results.push(single.parse(content));
  return results;
}

/** The content part of a result's data (whole-event results hold it under `content`). */
const contentOf = (result: SafeParseResult<unknown>, index: number): unknown =>
  index === 2 || index === 3 ? (result.data as { content: unknown }).content : result.data;

const anyContent = fc.constantFrom(...eventTypes).chain((type) =>
  fc.record({
    type: fc.constant(type),
    content: fc.oneof(
      { weight: 2, arbitrary: validContent[type] },
      { weight: 2, arbitrary: validContent[type].chain(nearMiss) },
      { weight: 1, arbitrary: validContent[type].chain(mutated) },
    ),
  }),
);

/** Overwrites every member of every object reachable from `value`, and grows every array. */
function vandalise(value: unknown): void {
  for (const object of reachableObjects(value)) {
    if (!Object.isExtensible(object)) continue;
    for (const key of Reflect.ownKeys(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key)!;
      if ("value" in descriptor && descriptor.writable && key !== "length") {
        (object as Record<PropertyKey, unknown>)[key] = "changed";
      }
    }
    if (Array.isArray(object)) object.push("added");
    else (object as Record<string, unknown>).added = "added";
  }
}

describe("data is the validated value, isolated from the input", () => {
  it("never mutates the input (600 valid and invalid contents, through every public function)", () => {
    fc.assert(
      fc.property(anyContent, ({ type, content }) => {
        const before = snapshot(content);
        everyParse(type, content);
        expect(snapshot(content)).toStrictEqual(before);
      }),
      { numRuns: 600 },
    );
  });

  it("returns a copy made of plain data that shares no object with the input (600 valid contents)", () => {
    const valid = fc
      .constantFrom(...eventTypes)
      .chain((type) => fc.record({ type: fc.constant(type), content: validContent[type] }));
    fc.assert(
      fc.property(valid, ({ type, content }) => {
        const inputObjects = reachableObjects(content);
        everyParse(type, content).forEach((result, index) => {
          expect(result.success).toBe(true);
          const data = contentOf(result, index);
          expect(findNonPlainData(data)).toBeUndefined();
          const shared = [...reachableObjects(data)].filter((object) => inputObjects.has(object));
          expect(shared, `objects shared with the input, call ${index}`).toStrictEqual([]);
        });
      }),
      { numRuns: 600 },
    );
  });

  it("keeps what was validated when the input changes after the call (400 valid contents)", () => {
    const valid = fc
      .constantFrom(...eventTypes)
      .chain((type) => fc.record({ type: fc.constant(type), content: validContent[type] }));
    fc.assert(
      fc.property(valid, ({ type, content }) => {
        const results = everyParse(type, content);
        const before = results.map((result) => canonical(structuredClone(result.data)));
        vandalise(content);
        expect(results.map((result) => canonical(result.data))).toStrictEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it("keeps what was validated when a getter or proxy answers differently on each read (600 contents)", () => {
    // Each read of one member answers the next value of a sequence (the last one repeats): valid
    // values, wrong ones, and mutable objects that are changed after the call.
    const recipe = fc.constantFrom(...eventTypes).chain((type) =>
      fc.record({
        type: fc.constant(type),
        content: validContent[type].filter((content) => typeof content === "object" && content !== null),
        at: fc.nat(),
        answers: fc.array(
          fc.oneof(
            fc.constant("original"),
            fc.constantFrom<unknown>("other", "", 1, null, true, ["a"], { a: 1 }, "😀".repeat(101)),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        proxy: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(recipe, ({ type, content, at, answers, proxy }) => {
        const handed: unknown[] = [];
        const changing = (original: unknown) => {
          let reads = 0;
          return () => {
            const answer = answers[Math.min(reads++, answers.length - 1)];
            const value = structuredClone(answer === "original" ? original : answer);
            handed.push(value);
            return value;
          };
        };
        const holders: { parent: Record<string, unknown>; key: string }[] = [];
        const walk = (node: unknown) => {
          if (typeof node !== "object" || node === null) return;
          for (const key of Object.keys(node)) {
            holders.push({ parent: node as Record<string, unknown>, key });
            walk((node as Record<string, unknown>)[key]);
          }
        };
        const input = structuredClone(content) as Record<string, unknown>;
        walk(input);
        let value: unknown = input;
        if (holders.length > 0) {
          const { parent, key } = holders[at % holders.length]!;
          const read = changing(parent[key]);
          if (proxy && parent === input) {
            value = new Proxy(input, {
              get: (target, name) => (name === key ? read() : Reflect.get(target, name)),
            });
          } else {
            Object.defineProperty(parent, key, { enumerable: true, configurable: true, get: read });
          }
        }
        let result: SafeParseResult<unknown> | undefined;
        expect(() => {
          result = safeParseEventContent(type, value);
        }).not.toThrow();
        if (!result?.success) return;
        const data = result.data;
        expect(findNonPlainData(data)).toBeUndefined();
        const kept = canonical(structuredClone(data));
        // What was validated is valid: the data passes again, unchanged.
        const again = safeParseEventContent(type, data);
        expect(again.success).toBe(true);
        expect(canonical(again.data)).toStrictEqual(kept);
        // Reading the input again, and changing what its getters handed out, leaves data alone.
        for (let i = 0; i < 3; i++) JSON.stringify(value);
        vandalise(handed);
        expect(canonical(data)).toStrictEqual(kept);
      }),
      { numRuns: 600 },
    );
  });

  it("keeps an annotations object changed after the call out of data", () => {
    const annotations = { mentions: ["user-1"], meta: { pinned: true } };
    const input = { body: "Hello", annotations };
    const result = safeParseEventContent("s.message.text", input);
    expect(result.success).toBe(true);
    annotations.mentions.push("user-2");
    annotations.meta.pinned = false;
    (annotations as Record<string, unknown>).added = 1;
    expect(result.data).toStrictEqual({
      body: "Hello",
      annotations: { mentions: ["user-1"], meta: { pinned: true } },
    });
  });
});
