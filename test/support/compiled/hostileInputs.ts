/**
 * The hostile inputs of the compiled validators' suites (compiledHostile.test.ts, guards.test.ts):
 * light values made fresh for each use, heavy ones built once (nothing may change them), and
 * hostile options.
 */
import {
  bare,
  cycle,
  forgedClassInstance,
  forging,
  hugeSparseArray,
  Message,
  megabyte,
  megabyteKey,
  nested,
  readTraps,
  revokedProxy,
  sharedGraph,
  throwingProxy,
} from "./hostileValues.js";

/** Light hostile values, fresh on each call: every entry point gets each. */
export const light: readonly [string, () => unknown][] = [
  ...readTraps.flatMap((trap): [string, () => unknown][] => [
    [`a proxy whose ${trap} trap throws`, () => throwingProxy(trap, { body: "x" })],
    [`a member behind a throwing ${trap} trap`, () => ({ body: "x", extra: throwingProxy(trap, { a: 1 }) })],
    [
      `a JSON member behind a throwing ${trap} trap`,
      () => ({ body: "x", annotations: { a: throwingProxy(trap, [1]) } }),
    ],
  ]),
  ["a revoked proxy", revokedProxy],
  ["a revoked proxy as a member", () => ({ body: "x", annotations: revokedProxy(), e: revokedProxy() })],
  [
    "a getter that throws an Error with forging text",
    () => ({
      body: "x",
      get e() {
        throw new Error(megabyte);
      },
    }),
  ],
  [
    "a getter that throws a string",
    () => ({
      get body() {
        throw megabyte;
      },
    }),
  ],
  [
    "a getter that throws an Error whose message getter throws",
    () => ({
      get body() {
        throw Object.defineProperty(new Error(), "message", {
          get() {
            throw new Error("again");
          },
        });
      },
    }),
  ],
  [
    "a frozen value",
    () => Object.freeze({ body: "x", annotations: Object.freeze({ a: Object.freeze([1]) }) }),
  ],
  ["a cycle", cycle],
  ["a cycle in a JSON member", () => ({ body: "x", annotations: { c: cycle() } })],
  ["a megabyte string", () => ({ body: megabyte, format: megabyte, status: megabyte, formId: megabyte })],
  ["a megabyte key", () => ({ body: "x", [megabyteKey]: 1 })],
  ["a megabyte key in a JSON member", () => ({ body: "x", annotations: { [megabyteKey]: Number.NaN } })],
  ["a megabyte key missing its value", () => ({ body: "x", [megabyteKey]: undefined })],
  ["a megabyte type", () => ({ type: megabyte, version: 2, content: {} })],
  [
    "__proto__ as an own key",
    () => JSON.parse('{"body":"x","__proto__":{"x":1},"annotations":{"__proto__":[]}}'),
  ],
  ["constructor and prototype keys", () => ({ body: "x", constructor: 1, prototype: { a: 1 } })],
  ["symbol keys", () => ({ body: "x", [Symbol("s")]: 1, annotations: { [Symbol("t")]: 2 } })],
  ["a symbol value", () => ({ body: Symbol(megabyte), annotations: { a: Symbol("s") } })],
  ["a bigint", () => ({ body: 1n, annotations: { a: 1n } })],
  ["a null-prototype object", () => bare({ body: "x", annotations: bare({ a: 1 }) })],
  ["a class instance", () => new Message()],
  [
    "a class instance as a member",
    () => ({ body: "x", annotations: { a: new Message() }, e: new Message() }),
  ],
  ["a class with a forged name", () => ({ body: forgedClassInstance(), e: forgedClassInstance() })],
  ["a typed array", () => new Uint8Array(4)],
  ["typed arrays as members", () => ({ body: new Uint8Array(4), formId: new Uint8Array(0) })],
  ["a Map, a Set and a Date", () => ({ body: "x", annotations: { m: new Map([[1, 2]]) }, s: new Set([1]) })],
  ["a Date", () => new Date(0)],
  ["a function", () => () => 1],
  ["an array", () => ["x"]],
  ["a String object", () => ({ formId: new String(""), body: new String("x") })],
  ["an object with a length", () => ({ formId: { length: 0 }, body: { length: "0" } })],
  ["forging keys", () => ({ body: "x", [forging]: 1, annotations: { [forging]: undefined } })],
  ["undefined", () => undefined],
  ["null", () => null],
  ["NaN", () => Number.NaN],
];

/** Heavy hostile values, built once: the main entry points get each. */
export const heavy: readonly [string, unknown][] = [
  ["100,000 nested objects", nested(100_000)],
  ["100,000 nested arrays", { body: "x", annotations: { a: nested(100_000, true) } }],
  ["100,000 nested objects as a member", { body: "x", e: nested(100_000) }],
  [
    "a sparse array of length 2^32 - 1",
    { body: "x", annotations: { a: hugeSparseArray() }, e: hugeSparseArray() },
  ],
  ["a sparse array of length 2^32 - 1 as a string", { body: hugeSparseArray(), formId: hugeSparseArray() }],
  ["a shared graph of 2^60 paths", { body: "x", annotations: sharedGraph(60) }],
  ["a shared graph of 2^60 paths as the value", sharedGraph(60)],
];

/** Hostile options: limits as proxies, NaN, negatives, infinities, strings, anything. */
export const hostileOptions: readonly [string, unknown][] = [
  ["a proxy whose get trap throws", throwingProxy("get", {})],
  ["a revoked proxy", revokedProxy()],
  ["a proxy that answers 1 to everything", new Proxy({}, { get: () => 1 })],
  ["NaN limits", { maxDepth: Number.NaN, maxNodes: Number.NaN, maxIssues: Number.NaN }],
  ["negative limits", { maxDepth: -1, maxNodes: -5, maxIssues: -1 }],
  ["zero limits", { maxDepth: 0, maxNodes: 0, maxIssues: 0 }],
  ["fractional limits", { maxDepth: 1.5, maxNodes: 2.5, maxIssues: 0.5 }],
  ["infinite depth and issues", { maxDepth: Number.POSITIVE_INFINITY, maxIssues: Number.POSITIVE_INFINITY }],
  ["string limits", { maxDepth: "1", maxNodes: "1", maxIssues: "1" }],
  ["bigint limits", { maxNodes: 1n }],
  [
    "a getter that throws",
    {
      get maxNodes() {
        throw new Error("limit");
      },
    },
  ],
  ["a string", "options"],
  ["a number", 5],
  ["an array", [1]],
];
