/**
 * Bad input gets a clear error, never a crash: the safe functions return a result for any input,
 * never mutate it, and keys such as `__proto__` pollute nothing.
 */
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  EventValidationError,
  eventTypes,
  parseEventContent,
  type SafeParseResult,
  safeParseEvent,
  safeParseEventContent,
} from "../../src/events/index.js";
import { safeParseWebhookPayload } from "../../src/webhooks/index.js";
import { validContent } from "../support/validContent.js";

const dangerousKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty");
const anything = fc.anything({
  key: fc.oneof(fc.string(), dangerousKey),
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withNullPrototype: true,
  withObjectString: true,
  maxDepth: 4,
});
const anyType = fc.oneof(fc.constantFrom(...eventTypes), fc.string(), fc.anything());

function expectWellFormed(result: SafeParseResult<unknown>): void {
  expect(typeof result.success).toBe("boolean");
  if (result.success) return;
  expect(result.error).toBeInstanceOf(EventValidationError);
  expect(result.error.issues.length).toBeGreaterThan(0);
  for (const issue of result.error.issues) {
    expect(issue.message.length).toBeGreaterThan(0);
    expect(typeof issue.pointer).toBe("string");
  }
}

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value !== "object" || value === null || seen.has(value) || ArrayBuffer.isView(value))
    return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
  return Object.freeze(value);
}

afterEach(() => {
  // Nothing may have landed on the shared prototypes.
  expect(Object.prototype).not.toHaveProperty("polluted");
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe("safe functions never throw", () => {
  it("safeParseEventContent returns a result for any type and any value", () => {
    fc.assert(
      fc.property(anyType, anything, (type, content) => {
        expectWellFormed(safeParseEventContent(type, content));
      }),
      { numRuns: 3000 },
    );
  });

  it("safeParseEvent returns a result for any value", () => {
    fc.assert(
      fc.property(anything, (value) => expectWellFormed(safeParseEvent(value))),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(anyType, anything, (type, content) => expectWellFormed(safeParseEvent({ type, content }))),
      { numRuns: 2000 },
    );
  });

  it("an unknown type is a failure with its own code, never a TypeError", () => {
    fc.assert(
      fc.property(
        anything.filter((type) => !(eventTypes as readonly unknown[]).includes(type)),
        anything,
        (type, content) => {
          const result = safeParseEventContent(type, content);
          expect(result.success).toBe(false);
          expect(result.error?.code).toBe("ERR_UNKNOWN_EVENT_TYPE");
          expect(result.error?.issues[0]?.pointer).toBe("/type");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reads of the input that throw become an 'unreadable' issue", () => {
    const hostile = {
      get body(): string {
        throw new TypeError("getter exploded: token=sk_live_123");
      },
    };
    const result = safeParseEventContent("s.message.text", hostile);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      code: "unreadable",
      pointer: "/content",
      message: 'content could not be read: "TypeError"',
      params: { reason: "TypeError" },
    });
    // What the getter threw may carry anything its code knew: its name is repeated, never its message.
    expect(JSON.stringify(result.error?.issues)).not.toContain("sk_live");
    expect(result.error?.message).not.toContain("sk_live");
    for (const [thrown, reason] of [
      [new (class QuotaError extends Error {})("secret"), "Error"],
      [Object.assign(new Error("secret"), { name: "a name with spaces and a secret" }), "an exception"],
      ["secret", "a string thrown"],
      [{ secret: true }, "an exception"],
    ] as const) {
      const throwing = {
        get body(): string {
          throw thrown;
        },
      };
      const issue = safeParseEventContent("s.message.text", throwing).error?.issues[0];
      expect(issue?.params).toEqual({ reason });
      expect(issue?.message).not.toContain("secret");
    }

    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    expectWellFormed(safeParseEventContent("s.delete", proxy));
    expectWellFormed(safeParseEvent(proxy));
    expect(() => parseEventContent("s.form", proxy)).toThrow(EventValidationError);
  });

  it("an event or a webhook payload that cannot even be asked what it is gets 'unreadable', not 'must be an object, not an object'", () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const trap = () => {
      throw new RangeError("secret");
    };
    const throwing = new Proxy({}, { getPrototypeOf: trap, get: trap });
    for (const value of [revoked, throwing]) {
      for (const result of [safeParseEvent(value), safeParseWebhookPayload(value)]) {
        expect(result.success).toBe(false);
        const [issue] = result.error!.issues;
        expect(issue).toMatchObject({ code: "unreadable", path: [], pointer: "" });
        expect(issue!.message).not.toMatch(/must be an object/);
        expect(result.error!.message).not.toContain("secret");
      }
    }
    // A value that is simply not an object still says so.
    expect(safeParseEvent(new Date(0)).error?.issues[0]?.message).toBe(
      "the event must be an object with type and content, not a Date",
    );
  });

  it("deeply nested values stop at the depth limit, without overflowing the stack", () => {
    let deepArray: unknown = "leaf";
    let deepObject: unknown = { leaf: true };
    for (let depth = 0; depth < 100_000; depth++) {
      deepArray = [deepArray];
      deepObject = { nested: deepObject };
    }
    for (const result of [
      safeParseEventContent("s.delete", deepArray),
      safeParseEventContent("s.message.text", { body: "x", annotations: deepObject }),
    ]) {
      expect(result.error?.issues).toHaveLength(1);
      expect(result.error?.issues[0]?.code).toBe("too_deep");
      expect(result.error?.message.length).toBeLessThan(500);
    }
    let shallowEnough: unknown = "leaf";
    for (let depth = 0; depth < 512; depth++) shallowEnough = [shallowEnough];
    expect(safeParseEventContent("s.delete", shallowEnough).success).toBe(true);
    expect(safeParseEventContent("s.delete", [shallowEnough]).error?.issues[0]?.code).toBe("too_deep");
    let deeper: unknown = "leaf";
    for (let depth = 0; depth < 1500; depth++) deeper = [deeper];
    expect(safeParseEventContent("s.delete", deeper, { maxDepth: 2000 }).success).toBe(true);
  });

  it("huge values are handled", () => {
    const long = "😀".repeat(2_000_000);
    const result = safeParseEventContent("s.message.text", { body: long, format: long });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: "too_long",
        pointer: "/content/format",
        message: expect.stringContaining("not 2000000"),
      }),
    ]);
    const many = Array.from({ length: 200_000 }, (_, index) => `user-${index}`);
    expect(
      safeParseEventContent("s.message.action", { type: "text", body: "b", writeable: many }).success,
    ).toBe(true);
  });

  it("cycles are reported, not followed forever", () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    cyclic.self = { back: cyclic };
    const result = safeParseEventContent("s.form.submission", cyclic);
    expect(result.error?.issues[0]).toMatchObject({ code: "not_json", pointer: "/content/self/back" });
    // A value reached twice without a cycle is fine JSON.
    const shared = { x: 1 };
    expect(safeParseEventContent("s.delete", { a: shared, b: [shared, shared] }).success).toBe(true);
  });

  it("values that JSON cannot carry are rejected where they are", () => {
    const rows: [unknown, string][] = [
      [undefined, "/content"],
      [{ a: undefined }, "/content/a"],
      [[1, Number.NaN], "/content/1"],
      [{ a: Number.POSITIVE_INFINITY }, "/content/a"],
      [{ a: () => 1 }, "/content/a"],
      [{ a: Symbol("s") }, "/content/a"],
      [{ a: 10n }, "/content/a"],
      [{ a: new Date(0) }, "/content/a"],
      [{ a: new Map() }, "/content/a"],
      [new Uint8Array(2), "/content"],
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point: JSON has none.
      [[1, , 3], "/content/1"],
    ];
    for (const [content, pointer] of rows) {
      const result = safeParseEventContent("s.delete", content);
      expect(result.success, String(pointer)).toBe(false);
      expect(result.error?.issues[0]?.pointer).toBe(pointer);
    }
    // Objects from another realm (an iframe, a vm context) are still plain objects.
    const foreign = runInNewContext('({ nested: { list: [1, "two", null] } })');
    expect(safeParseEventContent("s.delete", foreign).success).toBe(true);
    expect(safeParseEventContent("s.message.text", { body: "x", annotations: foreign }).success).toBe(true);
    expect(safeParseEventContent("s.delete", Object.create(null)).success).toBe(true);
  });
});

describe("input is never mutated", () => {
  it.each(eventTypes)("%s: valid and near-valid content, frozen, parses and stays equal", (type) => {
    fc.assert(
      fc.property(fc.oneof(validContent[type], fc.jsonValue()), (content) => {
        const before = structuredClone(content);
        const frozen = deepFreeze(content);
        const result = safeParseEventContent(type, frozen);
        // Frozen input would throw on any write; the comparison also catches a swap of members.
        expect(frozen).toEqual(before);
        if (result.success) expect(result.data).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  it("arbitrary values survive untouched", () => {
    fc.assert(
      fc.property(fc.constantFrom(...eventTypes), anything, (type, content) => {
        const frozen = deepFreeze(content);
        expectWellFormed(safeParseEventContent(type, frozen));
        expectWellFormed(safeParseEvent(deepFreeze({ type, content: frozen })));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("__proto__ and constructor keys pollute nothing", () => {
  const polluting =
    '"__proto__": { "polluted": "yes" }, "constructor": { "prototype": { "polluted": "yes" } }';

  it.each(eventTypes)("%s", (type) => {
    fc.assert(
      fc.property(validContent[type], (content) => {
        if (typeof content !== "object" || content === null || Array.isArray(content)) return;
        const json = JSON.stringify(content);
        const hostile: unknown = JSON.parse(
          json === "{}" ? `{${polluting}}` : `${json.slice(0, -1)},${polluting}}`,
        );
        const result = safeParseEventContent(type, hostile);
        if (result.success) {
          const data = result.data as Record<string, unknown>;
          expect(
            Object.getPrototypeOf(data) === Object.prototype || Object.getPrototypeOf(data) === null,
          ).toBe(true);
          expect(data.polluted).toBeUndefined();
        } else {
          // Strict objects name the unknown members.
          const pointers = result.error.issues.map((issue) => issue.pointer);
          expect(pointers).toContain("/content/__proto__");
        }
        const event = safeParseEvent(
          JSON.parse(`{"type":${JSON.stringify(type)},"content":${JSON.stringify(hostile)},${polluting}}`),
        );
        expect(event.success).toBe(false);
      }),
      { numRuns: 50 },
    );
  });
});
