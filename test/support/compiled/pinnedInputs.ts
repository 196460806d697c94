/**
 * Inputs where the compiled validators and the interpreted schemas once disagreed, or easily could:
 * compiled.test.ts runs them on every run, whatever the seed.
 */
import type { EventType, ValidationLimits } from "../../../src/events/index.js";

/** Sparse arrays, written without a literal hole (the linter forbids those). */
function holes(length: number, entries: Record<number, unknown>): unknown[] {
  const array: unknown[] = new Array(length);
  for (const [index, value] of Object.entries(entries)) array[Number(index)] = value;
  return array;
}

/** A value that contains itself, `depth` levels down. */
function cycle(depth: number): unknown {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let level = 1; level < depth; level++) {
    const next: Record<string, unknown> = {};
    at[`k${level}`] = next;
    at = next;
  }
  at.back = root;
  return root;
}

/** Arrays nested `depth` levels around a string. */
function deepArrays(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

/**
 * Inputs where the two once disagreed or easily could: they run on every run, whatever the seed.
 * Each row is a content (`type`) or a whole event (`"event"`), with limits when given.
 */
export const pinned: readonly [string, EventType | "event", unknown, ValidationLimits?][] = [
  ["an array where a non-empty string is required", "s.form", { formId: [], inline: true }],
  ["an empty array for agentId", "s.support.delegate", { type: "Agent", agentId: [] }],
  [
    "an array of a number and null as invocation value",
    "s.message.action.invocation",
    { value: [0, null], label: 1 },
  ],
  [
    "an array of a number and null as invocation value, one issue reported",
    "s.message.action.invocation",
    { value: [0, null], label: 1 },
    { maxIssues: 1 },
  ],
  [
    "a strict object over the node limit",
    "s.change",
    { id: "", type: "", relationship: "" },
    { maxNodes: 3 },
  ],
  [
    "a whole event over the node limit",
    "event",
    { type: "s.change", content: { id: "", type: "", relationship: "" } },
    { maxNodes: 5 },
  ],
  ["a fractional node limit", "event", { type: "s.room.pin", content: { value: true } }, { maxNodes: 3.5 }],
  [
    "nesting past maxDepth in annotations",
    "s.message.text",
    { body: "", annotations: { a: [[1]] } },
    { maxDepth: 3 },
  ],
  [
    "nesting at maxDepth in annotations",
    "s.message.text",
    { body: "", annotations: { a: [1] } },
    { maxDepth: 3 },
  ],
  [
    "__proto__ from JSON.parse in an open object",
    "s.message.text",
    JSON.parse('{"body":"x","__proto__":{"a":1}}'),
  ],
  [
    "__proto__ from JSON.parse in a strict object",
    "s.change",
    JSON.parse('{"id":"a","type":"b","__proto__":1}'),
  ],
  [
    "__proto__ from JSON.parse in annotations",
    "s.message.edit",
    JSON.parse('{"body":"x","annotations":{"__proto__":[]}}'),
  ],
  ["__proto__ from JSON.parse in open content", "s.delete", JSON.parse('{"__proto__":{"b":2}}')],
  ["an inherited required member", "s.message.text", Object.create({ body: "inherited" })],
  [
    "an inherited extra member",
    "s.message.media",
    Object.assign(Object.create({ extra: 1 }), { body: "b", mediaId: "m" }),
  ],
  [
    "a class instance as content",
    "s.room.create",
    new (class Room {
      creatorId = "u";
    })(),
  ],
  ["a hole in a string array", "s.message.action.invocation", { value: holes(2, { 1: "a" }) }],
  ["a hole in open content", "s.delete", holes(2, { 1: 1 })],
  [
    "a trailing hole in writeable",
    "s.message.action",
    { type: "text", body: "b", writeable: holes(2, { 0: "w" }) },
  ],
  ["29 February of a non-leap year", "s.timer", { status: "RUNNING", expires: "2025-02-29T12:00:00Z" }],
  ["29 February of 1900", "s.timer", { status: "RUNNING", expires: "1900-02-29T12:00:00Z" }],
  ["29 February of 2000", "s.timer", { status: "RUNNING", expires: "2000-02-29T12:00:00+05:30" }],
  ["label and body on media", "s.message.media", { label: "l", body: "b", mediaId: "m" }],
  ["neither label nor body on media", "s.message.media", { mediaId: "m" }],
  [
    "boolean options with two true values",
    "s.message.action",
    {
      type: "boolean",
      body: "b",
      writeable: ["w"],
      options: [
        { label: "Yes", value: "true" },
        { label: "Also yes", value: "true" },
      ],
    },
  ],
  ["101 emoji in format", "s.message.text", { body: "", format: "😀".repeat(101) }],
  ["100 emoji in format", "s.message.text", { body: "", format: "😀".repeat(100) }],
  [
    "NaN, undefined, a Map and a function in annotations",
    "s.message.text",
    {
      body: "",
      annotations: { a: Number.NaN, b: undefined, c: new Map(), d: () => 1 },
    },
  ],
  ["undefined as an optional member", "s.message.edit", { body: "", editedType: undefined }],
  [
    "a bad entry deep inside options",
    "s.message.action",
    {
      type: "select",
      body: "b",
      writeable: ["w"],
      multiple: true,
      options: [
        ...Array.from({ length: 30 }, (_, i) => ({ label: `l${i}`, value: `v${i}` })),
        { label: "l", value: 1 },
      ],
    },
  ],
  ["a cycle in annotations", "s.message.text", { body: "", annotations: cycle(3) }],
  ["a cycle as open content", "s.support.open", cycle(1)],
  ["a cycle in a strict member", "s.support.request", { liveChatId: cycle(2) }],
  ["nesting past the default depth", "s.delete", deepArrays(600)],
  ["nesting at the default depth", "s.delete", deepArrays(511)],
  ["exactly maxNodes values", "s.delete", [1, 2, 3, 4], { maxNodes: 5 }],
  ["one value past maxNodes", "s.delete", [1, 2, 3, 4, 5], { maxNodes: 5 }],
  [
    "an own __proto__ member counted against maxNodes",
    "s.message.preview",
    JSON.parse('{"url":"u","__proto__":[1,2,3,4,5]}'),
    { maxNodes: 3 },
  ],
  [
    "an own __proto__ member nested past maxDepth",
    "s.message.text",
    JSON.parse('{"body":"b","__proto__":[[[1]]]}'),
    { maxDepth: 2 },
  ],
  [
    "an own __proto__ member that is not JSON",
    "s.message.text",
    Object.defineProperty({ body: "b" }, "__proto__", {
      value: Number.NaN,
      enumerable: true,
      writable: true,
      configurable: true,
    }),
  ],
  [
    "inherited members under maxNodes",
    "s.message.text",
    Object.assign(Object.create({ min: [] }), { body: "b", label: "l" }),
    { maxNodes: 3 },
  ],
  [
    "inherited members past maxDepth",
    "s.message.edit",
    Object.assign(Object.create({ annotations: { a: { b: 1 } } }), { body: "b" }),
    { maxDepth: 1 },
  ],
  ["an unknown member on the event", "event", { type: "s.room.pin", content: { value: true }, extra: 1 }],
  ["an event without content", "event", { type: "s.room.close" }],
  ["an event whose type is a neighbour", "event", { type: "s.room.Close", content: {} }],
];
