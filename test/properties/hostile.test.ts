/**
 * Every input is hostile: the safe functions, the type guards and the formatters return for any
 * argument (proxies whose traps throw, revoked proxies, throwing getters anywhere), their output is
 * bounded whatever the input, and one bad input cannot amplify into megabytes of errors.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isEventsClientError } from "../../src/client/index.js";
import {
  EventValidationError,
  eventTypes,
  isEventType,
  isEventValidationError,
  type SafeParseResult,
  safeParseEvent,
  safeParseEventContent,
  toJsonPointer,
} from "../../src/events/index.js";
import {
  echoesIdempotencyKey,
  isValidIdempotencyKey,
  readIdempotencyKey,
} from "../../src/idempotency/index.js";
import {
  acceptsJsonApi,
  isJsonApiFieldName,
  isJsonApiMediaType,
  safeParseEventDocument,
  safeParseEventResource,
  toJsonApiErrors,
} from "../../src/jsonapi/index.js";
import {
  createWebhookVerifier,
  isWebhookSigningError,
  isWebhookVerificationError,
  safeParseWebhookPayload,
  safeVerifyWebhook,
  safeVerifyWebhookRequest,
  safeVerifyWebhookSignature,
} from "../../src/webhooks/index.js";

const boom = () => {
  throw new Error("trap");
};
const throwingTraps: ProxyHandler<object> = {
  get: boom,
  set: boom,
  has: boom,
  ownKeys: boom,
  getPrototypeOf: boom,
  getOwnPropertyDescriptor: boom,
  defineProperty: boom,
  deleteProperty: boom,
  isExtensible: boom,
  preventExtensions: boom,
  setPrototypeOf: boom,
  apply: boom,
  construct: boom,
};

/**
 * Values that fight back: every kind of proxy and getter that throws, alone or inside data. The
 * arbitraries make recipes (fast-check itself must not touch a revoked proxy); `build` turns a
 * recipe into the hostile value, fresh for every call.
 */
const kinds = [
  "trapObject",
  "trapArray",
  "trapFunction",
  "revokedObject",
  "revokedArray",
  "throwingGetter",
  "throwingIndex",
] as const;
type Recipe = { hostile: (typeof kinds)[number]; key: string } | unknown;
const hostileLeaf = fc.record({ hostile: fc.constantFrom(...kinds), key: fc.string({ maxLength: 5 }) });

function build(recipe: Recipe): unknown {
  if (Array.isArray(recipe)) return recipe.map(build);
  if (typeof recipe !== "object" || recipe === null || Object.getPrototypeOf(recipe) !== Object.prototype)
    return recipe;
  const { hostile, key } = recipe as { hostile?: unknown; key?: unknown };
  switch (hostile) {
    case "trapObject":
      return new Proxy({}, throwingTraps);
    case "trapArray":
      return new Proxy([], throwingTraps);
    case "trapFunction":
      return new Proxy(() => undefined, throwingTraps);
    case "revokedObject":
    case "revokedArray": {
      const { proxy, revoke } = Proxy.revocable(hostile === "revokedArray" ? [] : {}, {});
      revoke();
      return proxy;
    }
    case "throwingGetter":
      return Object.defineProperty({}, String(key), { enumerable: true, get: boom });
    case "throwingIndex":
      return Object.defineProperty([], 0, { enumerable: true, get: boom });
  }
  return Object.fromEntries(Object.entries(recipe).map(([name, value]) => [name, build(value)]));
}

const hostile: fc.Arbitrary<Recipe> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileLeaf,
    fc.anything({ withBigInt: true, withDate: true, withMap: true, withSparseArray: true, maxDepth: 2 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom("__proto__", "type", "content", "data", "attributes")),
      tie("value"),
      { maxKeys: 4 },
    ),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.record({ type: fc.oneof(fc.constantFrom(...eventTypes), tie("value")), content: tie("value") }),
    fc.record({
      data: fc.record({ type: fc.constant("events"), attributes: tie("value"), meta: tie("value") }),
    }),
  ),
})).value;

function expectBounded(result: SafeParseResult<unknown>): void {
  expect(typeof result.success).toBe("boolean");
  if (result.success) return;
  expect(result.error).toBeInstanceOf(EventValidationError);
  expect(result.error.issues.length).toBeGreaterThan(0);
  expect(result.error.issues.length).toBeLessThanOrEqual(100);
  expect(result.error.message.length).toBeLessThan(8 * 1024);
  expect(JSON.stringify(toJsonApiErrors(result.error)).length).toBeLessThanOrEqual(64 * 1024);
}

describe("safe functions, guards and formatters return for any argument", () => {
  it("the parsers return a bounded result for hostile values anywhere", () => {
    fc.assert(
      fc.property(hostile, hostile, (recipeA, recipeB) => {
        const a = build(recipeA);
        const b = build(recipeB);
        expectBounded(safeParseEvent(a));
        expectBounded(safeParseEvent(a, b as never));
        expectBounded(safeParseEventContent(a, b));
        expectBounded(safeParseEventContent("s.delete", a));
        expectBounded(safeParseEventContent("s.message.action", a));
        expectBounded(safeParseEventDocument(a));
        expectBounded(safeParseEventResource(a));
        expectBounded(safeParseWebhookPayload(a));
      }),
      { numRuns: 600 },
    );
  });

  it("the guards and formatters return for hostile values", () => {
    fc.assert(
      fc.property(hostile, hostile, (recipeA, recipeB) => {
        const a = build(recipeA);
        const b = build(recipeB);
        expect(typeof isEventValidationError(a)).toBe("boolean");
        expect(typeof isEventType(a)).toBe("boolean");
        expect(typeof isValidIdempotencyKey(a)).toBe("boolean");
        expect(typeof isJsonApiMediaType(a)).toBe("boolean");
        expect(typeof acceptsJsonApi(a)).toBe("boolean");
        expect(typeof isJsonApiFieldName(a)).toBe("boolean");
        expect(typeof echoesIdempotencyKey(a, "k")).toBe("boolean");
        expect(typeof readIdempotencyKey(a as never).success).toBe("boolean");
        expect(typeof readIdempotencyKey({ headers: a, document: b }).success).toBe("boolean");
        expect(typeof toJsonPointer(a as never, b as never)).toBe("string");
        const document = toJsonApiErrors(a);
        expect(document.errors.length).toBeGreaterThan(0);
        expect(JSON.stringify(document).length).toBeLessThanOrEqual(64 * 1024);
      }),
      { numRuns: 600 },
    );
  });

  it("the webhook verifiers resolve, never reject, for hostile options, bodies and headers", async () => {
    const verifier = createWebhookVerifier({ secret: "s3cr3t" });
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, async (recipeA, recipeB, recipeC) => {
        const [a, b, c] = [build(recipeA), build(recipeB), build(recipeC)];
        const results = [
          await safeVerifyWebhook(a as never),
          await safeVerifyWebhook({ body: a, headers: b, secret: "s3cr3t", now: c } as never),
          await safeVerifyWebhookSignature({ body: a, headers: b, secret: c } as never),
          await safeVerifyWebhookRequest(a as never, b as never),
          await verifier.safeVerify({ body: a, headers: b } as never),
          await verifier.safeVerifyRequest(a as never),
        ];
        for (const result of results) {
          expect(result.success).toBe(false);
          expect(typeof result.error?.code).toBe("string");
          expect(result.error!.message.length).toBeLessThan(1024);
          expect(hasControl(result.error!.message)).toBe(false);
        }
        expect(typeof isWebhookVerificationError(a)).toBe("boolean");
        expect(typeof isWebhookSigningError(a)).toBe("boolean");
        expect(typeof isEventsClientError(a)).toBe("boolean");
      }),
      { numRuns: 300 },
    );
  });

  it("forged errors are formatted as an opaque 500, not thrown", () => {
    const brand = Symbol.for("messaging-events.EventValidationError");
    for (const forged of [
      { [brand]: true, issues: 5 },
      { [brand]: true, issues: [5, null, { code: "x" }] },
      { [brand]: true, issues: new Proxy([], throwingTraps) },
      {
        [brand]: true,
        get issues() {
          throw new Error("trap");
        },
      },
      { [brand]: true, issues: [{ code: "__proto__", message: "m", pointer: "", path: [] }] },
    ]) {
      const document = toJsonApiErrors(forged);
      expect(document.errors.length).toBeGreaterThan(0);
      expect(JSON.stringify(document).length).toBeLessThanOrEqual(64 * 1024);
      for (const error of document.errors) expect(typeof error.title).toBe("string");
    }
  });
});

describe("one bad input cannot amplify into a flood of errors", () => {
  const manyKeys = (count: number, value: unknown) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value]));
  const cases: [string, () => SafeParseResult<unknown>, number][] = [
    [
      "50,000 wrong entries in an array",
      () =>
        safeParseEvent({
          type: "s.message.action",
          content: { type: "text", body: "x", writeable: Array(5e4).fill(0) },
        }),
      5e4,
    ],
    [
      "200,000 wrong entries (past where Zod's own array overflows the stack)",
      () =>
        safeParseEvent({
          type: "s.message.action",
          content: { type: "text", body: "x", writeable: Array(2e5).fill(0) },
        }),
      2e5,
    ],
    [
      "50,000 unknown members of a strict object",
      () => safeParseEventContent("s.room.create", { creatorId: "u", ...manyKeys(5e4, 1) }),
      5e4,
    ],
    [
      "50,000 members that are not JSON in an open object",
      () => safeParseEventContent("s.message.text", { body: "x", ...manyKeys(5e4, undefined) }),
      5e4,
    ],
    [
      "50,000 wrong options",
      () =>
        safeParseEventContent("s.message.action", {
          type: "button",
          body: "x",
          writeable: ["a"],
          options: Array(5e4).fill({ value: 1, label: "x" }),
        }),
      5e4,
    ],
    [
      "50,000 badly named relationships",
      () =>
        safeParseEventDocument({
          data: {
            type: "events",
            attributes: { eventType: "s.room.close", content: {} },
            relationships: Object.fromEntries(Array.from({ length: 5e4 }, (_, i) => [`_r${i}`, {}])),
          },
        }),
      5e4,
    ],
  ];

  it.each(cases)(
    "%s: the first 100 issues, the rest counted, bounded messages and documents",
    (_name, run, total) => {
      const result = run();
      expect(result.success).toBe(false);
      const error = result.error!;
      expect(error.issues).toHaveLength(100);
      expect(error.issues.length + error.omittedIssues).toBe(total);
      expect(error.issues.every((issue) => issue.code !== "unreadable")).toBe(true);
      expect(error.message.length).toBeLessThan(4096);
      expect(error.message).toContain(`${total} problems`);
      const document = toJsonApiErrors(error);
      expect(JSON.stringify(document).length).toBeLessThanOrEqual(64 * 1024);
      expect(document.errors.length + (document.meta?.omittedErrors ?? 0)).toBe(total);
    },
  );

  it("the issue limit can be set per call", () => {
    const content = { type: "text", body: "x", writeable: Array(500).fill(0) };
    const few = safeParseEventContent("s.message.action", content, { maxIssues: 3 });
    expect(few.error?.issues).toHaveLength(3);
    expect(few.error?.omittedIssues).toBe(497);
    const all = safeParseEventContent("s.message.action", content, { maxIssues: 1000 });
    expect(all.error?.issues).toHaveLength(500);
    expect(all.error?.omittedIssues).toBe(0);
  });

  it("long keys never make long pointers, paths or documents", () => {
    const key = "k".repeat(1_000_000);
    const result = safeParseEventContent("s.message.text", {
      body: "x",
      [key]: undefined,
      [`${key}2`]: Number.NaN,
    });
    expect(result.success).toBe(false);
    for (const issue of result.error!.issues) {
      expect(issue.pointer.length).toBeLessThanOrEqual(256);
      expect(JSON.stringify(issue.path).length).toBeLessThanOrEqual(300);
    }
    expect(result.error!.message.length).toBeLessThan(1024);
    expect(JSON.stringify(toJsonApiErrors(result.error)).length).toBeLessThan(4096);
  });
});

/** Whether a text holds a control character that could break or forge a log line. */
const hasControl = (text: string): boolean => [...text].some((char) => char.charCodeAt(0) < 0x20);

describe("echoed values are short and cannot forge a log line", () => {
  it.each([
    ["a 10 MB type", { type: "w".repeat(1e7), content: {} }],
    ["a type with a line break", { type: "s.message.text\nFAKE LOG LINE", content: {} }],
    ["a type with ANSI escapes", { type: "\u001b[2J\u001b[31mred", content: {} }],
  ])("%s", (_name, event) => {
    for (const result of [
      safeParseEvent(event),
      safeParseWebhookPayload({ ...event, version: 2 }),
      safeParseEventDocument({
        data: { type: "events", attributes: { eventType: event.type, content: {} } },
      }),
    ]) {
      const error = result.error!;
      expect(error.message.length).toBeLessThan(300);
      expect(hasControl(error.message)).toBe(false);
      expect((error.eventType ?? "").length).toBeLessThanOrEqual(41);
      for (const issue of error.issues) expect(hasControl(issue.message)).toBe(false);
    }
  });

  it("a 10 MB string value is cut in the message", () => {
    const result = safeParseEventContent("s.presence", { status: `${"x".repeat(1e7)}\n` });
    expect(result.error?.message.length).toBeLessThan(300);
    expect(result.error?.issues[0]?.message).toContain('not "xxxxxxxx');
  });
});

describe("cost is bounded by the nodes visited, never by the shape", () => {
  it("a sparse array that claims 2^32 - 1 entries is refused at the node limit, no crash", () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    for (const result of [
      safeParseEventContent("s.delete", sparse),
      safeParseEventContent("s.message.action.invocation", { value: sparse }),
    ]) {
      expect(result.error?.issues[0]?.code).toBe("too_many_nodes");
    }
  });

  it("a graph of shared objects is counted each time it is reached", () => {
    let dag: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 24; i++) dag = { a: dag, b: dag };
    const result = safeParseEventContent("s.delete", dag);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: "too_many_nodes", pointer: "/content" }),
    ]);
    // Below the limit, shared values are fine JSON; the limit is the caller's to set.
    let small: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 14; i++) small = { a: small, b: small };
    expect(safeParseEventContent("s.delete", small).success).toBe(true);
    expect(safeParseEventContent("s.delete", small, { maxNodes: 1000 }).error?.issues[0]?.code).toBe(
      "too_many_nodes",
    );
  });

  it("a deep prefix does not send a large valid value down a slow path", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const big = { prefix: deep, rows: Array.from({ length: 50_000 }, (_, i) => ({ i, s: "abcdefghij" })) };
    expect(safeParseEventContent("s.delete", big).success).toBe(true);
  });
});
