/**
 * Issues an application can translate: a German message table is written from the issues'
 * parameters alone, one entry per code (typed, so an entry can use only what its code carries),
 * and every issue that a conformance case, a generated near miss or mutation, a whole event, a
 * JSON:API document or a webhook payload produces must render in it with every parameter its
 * entry needs present and of the documented kind. The parameters are also held to the English
 * message they were made from (its numbers and quoted values), and every code is seen.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  type EventType,
  type EventValidationExpected,
  type EventValidationIssue,
  type EventValidationIssueCode,
  type EventValidationIssueParams,
  type EventValidationLiteral,
  type EventValidationReceived,
  eventTypes,
  safeParseEvent,
  safeParseEventContent,
} from "../../src/events/index.js";
import { safeParseEventDocument } from "../../src/jsonapi/index.js";
import { safeParseWebhookPayload } from "../../src/webhooks/index.js";
import { cycle, nested, throwingProxy } from "../support/compiled/hostileValues.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";
import { conformanceCases } from "./cases.js";

/** A parameter an entry cannot do without: its absence is a defect of the library. */
function need<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`missing parameter ${name}`);
  return value;
}

const kinds: Record<string, string> = {
  string: "eine Zeichenkette",
  number: "eine endliche Zahl",
  integer: "eine ganze Zahl",
  boolean: "ein Wahrheitswert",
  null: "null",
  object: "ein Objekt",
  array: "eine Liste",
  json: "ein beliebiger JSON-Wert",
  link: "ein Link (URL oder Objekt mit href)",
  url: "eine URL",
  resource_identifier: "ein Ressourcenbezeichner { type, id }",
  relationship: "eine Beziehung mit data, links oder meta",
};
const found: Record<string, string> = {
  ...kinds,
  number: "eine Zahl",
  undefined: "nichts",
  circular: "ein Zirkelbezug",
  NaN: "NaN",
  Infinity: "Unendlich",
  "-Infinity": "minus Unendlich",
};
const expected = (kind: EventValidationExpected) => kinds[need(kind, "expected")] ?? `ein ${kind}`;
const received = (kind: EventValidationReceived) => found[need(kind, "received")] ?? `ein ${kind}`;
const either = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} oder ${items[items.length - 1]}`;
const literal = (value: EventValidationLiteral) => (typeof value === "string" ? `„${value}“` : String(value));
const shown = (params: { received: EventValidationReceived; value?: string | number | boolean }) =>
  params.value === undefined ? received(params.received) : literal(params.value);

type Entry<C extends EventValidationIssueCode> = (
  field: string,
  params: EventValidationIssueParams[C],
) => string;

/** The German table: one entry per code, written from the parameters alone. */
const german: { readonly [C in EventValidationIssueCode]: Entry<C> } = {
  required: (field, p) =>
    `${field} fehlt: erwartet ${p.values === undefined ? either(need(p.expected, "expected").map(expected)) : either(p.values.map(literal))}`,
  invalid_type: (field, p) => `${field} muss ${expected(p.expected)} sein, nicht ${received(p.received)}`,
  invalid_value: (field, p) => {
    switch (need(p.rule, "rule")) {
      case "one_of": {
        const q = p as Extract<typeof p, { rule: "one_of" }>;
        return `${field} muss ${either(need(q.values, "values").map(literal))} sein, nicht ${shown(q)}`;
      }
      case "not_blank":
        return `${field} darf nicht nur aus Leerzeichen bestehen`;
      case "idempotency_key": {
        const q = p as Extract<typeof p, { rule: "idempotency_key" }>;
        return `${field} muss aus 1 bis 255 sichtbaren ASCII-Zeichen ohne Komma bestehen, nicht ${shown(q)}`;
      }
      case "field_name":
        return `${field} ist kein Feldname, den JSON:API erlaubt`;
      case "other":
        return `${field} ist ungültig`;
    }
  },
  invalid_format: (field, p) =>
    `${field} muss ${need(p.format, "format") === "date-time" ? "ein Zeitpunkt nach RFC 3339 mit Zeitzone" : p.format} sein, nicht ${shown(p)}`,
  too_long: (field, p) =>
    `${field} darf höchstens ${need(p.maximum, "maximum")} Zeichen lang sein${p.length === undefined ? "" : `, nicht ${p.length}`}`,
  too_short: (field, p) =>
    need(p.minimum, "minimum") === 1
      ? `${field} darf nicht leer sein`
      : `${field} muss mindestens ${p.minimum} Zeichen lang sein`,
  too_many_items: (field, p) =>
    `${field} darf ${p.exact ? "genau" : "höchstens"} ${need(p.maximum, "maximum")} Einträge haben${p.length === undefined ? "" : `, nicht ${p.length}`}`,
  too_few_items: (field, p) =>
    `${field} muss ${p.exact ? "genau" : "mindestens"} ${need(p.minimum, "minimum")} Einträge haben${p.length === undefined ? "" : `, nicht ${p.length}`}`,
  unknown_property: (field, p) =>
    `${field} ist hier nicht erlaubt (${need(p.key, "key")} ist kein bekanntes Feld)`,
  not_json: (field, p) => `${field} muss ein JSON-Wert sein, nicht ${received(p.received)}`,
  exactly_one_of: (field, p) =>
    `${field} braucht genau eines von ${either(need(p.keys, "keys"))}, ${need(p.present, "present") === 0 ? "hat keines" : `hat ${p.present}`}`,
  boolean_options: (field, p) =>
    `${field} muss „${need(p.missing, "missing")}“ sein: eine Ja/Nein-Aktion braucht „true“ und „false“`,
  no_matching_variant: (field, p) =>
    `${field} muss ${either(need(p.expected, "expected").map(expected))} sein, nicht ${received(p.received)}`,
  unknown_event_type: (field, p) =>
    p.type === undefined
      ? `${field} muss ein Ereignistyp sein, nicht ${received(need(p.received, "received"))}`
      : `${field}: „${p.type}“ ist kein bekannter Ereignistyp${p.suggestion === undefined ? "" : ` (gemeint: „${p.suggestion}“?)`}`,
  unreadable: (field, p) => `${field} konnte nicht gelesen werden: ${need(p.reason, "reason")}`,
  too_deep: (field, p) => `${field} ist tiefer verschachtelt als ${need(p.maximum, "maximum")} Ebenen`,
  too_many_nodes: (field, p) => `${field} enthält mehr als ${need(p.maximum, "maximum")} Werte`,
};

/** An issue in German: its path as the field, then its code's entry. */
function inGerman(issue: EventValidationIssue): string {
  const entry = german[issue.code] as Entry<typeof issue.code>;
  return entry(issue.path.length === 0 ? "Der Wert" : issue.path.join("."), issue.params as never);
}

const isKind = (value: unknown) => typeof value === "string" && value.length > 0;
const isCount = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;
const isLiteral = (value: unknown) =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

/** The members each code's parameters may have, with a test of each (optional ones marked `?`). */
const shapes: { readonly [C in EventValidationIssueCode]: Record<string, (value: unknown) => boolean> } = {
  required: {
    expected: (v) => Array.isArray(v) && v.length > 0 && v.every(isKind),
    "values?": (v) => Array.isArray(v) && v.every(isLiteral),
  },
  invalid_type: { expected: isKind, received: isKind },
  invalid_value: {
    rule: (v) => ["one_of", "not_blank", "idempotency_key", "field_name", "other"].includes(v as string),
    "values?": (v) => Array.isArray(v) && v.every(isLiteral),
    "received?": isKind,
    "value?": (v) => ["string", "number", "boolean"].includes(typeof v),
  },
  invalid_format: { format: isKind, received: isKind, "value?": (v) => typeof v === "string" },
  too_long: { maximum: isCount, "length?": isCount },
  too_short: { minimum: isCount },
  too_many_items: { maximum: isCount, exact: (v) => typeof v === "boolean", "length?": isCount },
  too_few_items: { minimum: isCount, exact: (v) => typeof v === "boolean", "length?": isCount },
  unknown_property: { key: (v) => typeof v === "string" },
  not_json: { received: isKind },
  exactly_one_of: { keys: (v) => Array.isArray(v) && v.length > 1 && v.every(isKind), present: isCount },
  boolean_options: { missing: (v) => v === "true" || v === "false" },
  no_matching_variant: {
    expected: (v) => Array.isArray(v) && v.length > 1 && v.every(isKind),
    received: isKind,
  },
  unknown_event_type: { received: isKind, "type?": (v) => typeof v === "string", "suggestion?": isKind },
  unreadable: { reason: (v) => typeof v === "string" },
  too_deep: { maximum: isCount },
  too_many_nodes: { maximum: isCount },
};

const seen = new Map<EventValidationIssueCode, number>();

/** Every issue of `issues` has the parameters its code documents, renders in German, and agrees with its message. */
function expectTranslatable(issues: readonly EventValidationIssue[] | undefined): void {
  for (const issue of issues ?? []) {
    seen.set(issue.code, (seen.get(issue.code) ?? 0) + 1);
    const shape = shapes[issue.code];
    const params = issue.params as unknown as Record<string, unknown>;
    expect(typeof params, `${issue.code}: params`).toBe("object");
    for (const [name, test] of Object.entries(shape)) {
      const key = name.replace("?", "");
      if (params[key] === undefined) {
        expect(name.endsWith("?"), `${issue.code}: missing ${key} (${issue.message})`).toBe(true);
        expect(key in params, `${issue.code}: ${key} present but undefined`).toBe(false);
      } else expect(test(params[key]), `${issue.code}: ${key} = ${JSON.stringify(params[key])}`).toBe(true);
    }
    for (const key of Object.keys(params))
      expect(key in shape || `${key}?` in shape, `${issue.code}: undocumented ${key}`).toBe(true);
    const text = inGerman(issue);
    expect(text, issue.message).not.toMatch(/undefined|\[object Object\]/);
    // What the English message was made from: its numbers and quoted values.
    for (const key of ["maximum", "length"] as const)
      if (typeof params[key] === "number") expect(issue.message).toContain(String(params[key]));
    if (typeof params.value === "string" && /^[\w .:+-]{0,40}$/.test(params.value))
      expect(issue.message).toContain(`"${params.value}"`);
  }
}

afterAll(() => {
  console.log(
    `\nIssues rendered in German, by code: ${[...seen].map(([code, n]) => `${code} ${n}`).join(", ")}`,
  );
});

describe("every issue can be written in another language from its parameters", () => {
  it("on every invalid conformance case, as content and as a whole event", () => {
    for (const row of conformanceCases) {
      expectTranslatable(safeParseEventContent(row.type, row.content).error?.issues);
      expectTranslatable(safeParseEvent({ type: row.type, content: row.content }).error?.issues);
    }
  });

  it.each(eventTypes)("on 150 near misses and 50 mutations of %s", (type: EventType) => {
    fc.assert(
      fc.property(
        fc.oneof(validContent[type].chain(nearMiss), validContent[type].chain(mutated)),
        (content) => {
          expectTranslatable(safeParseEventContent(type, content, { maxIssues: 1000 }).error?.issues);
          expectTranslatable(safeParseEvent({ type, content, extra: 1 }).error?.issues);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("on the issues of limits, unknown types and values that cannot be read", () => {
    const inputs: [unknown, unknown?][] = [
      [{ type: "s.message.txt", content: {} }],
      [{ type: "s.mesage.text", content: {} }],
      [{ type: 42, content: {} }],
      [{ content: {} }],
      ["not an event"],
      [{ type: "s.delete", content: nested(20, true) }, { maxDepth: 5 }],
      [{ type: "s.delete", content: [1, 2, 3, 4, 5, 6] }, { maxNodes: 4 }],
      [{ type: "s.delete", content: { c: cycle() } }],
      [{ type: "s.message.text", content: throwingProxy("get", { body: "x" }) }],
      [{ type: "s.delete", content: { at: new Date(0), n: Number.NaN } }],
    ];
    for (const [event, limits] of inputs)
      expectTranslatable(safeParseEvent(event, limits as never).error?.issues);
  });

  it("on JSON:API documents and webhook payloads that break their rules", () => {
    const data = { type: "events", attributes: { eventType: "s.room.pin", content: { value: true } } };
    const documents: unknown[] = [
      { data: { ...data, relationships: { "bad name": {}, room: { data: { type: 1 } }, user: {} } } },
      { data: { ...data, links: { self: 1, next: { meta: 1 } } } },
      { data: { ...data, attributes: { ...data.attributes, "bad name": 1 } }, jsonapi: { version: 1 } },
      { data: { ...data, meta: { "idempotency-key": "a,b" } } },
      { data, errors: [] },
      { data: { ...data, id: "   " } },
      [],
    ];
    for (const document of documents) expectTranslatable(safeParseEventDocument(document).error?.issues);
    const payloads: unknown[] = [
      { type: "s.room.close", version: 1, content: {} },
      { type: "s.message.text", version: 2, content: { body: "x" }, recipients: [{ externalId: 1 }] },
      { type: "s.nothing", version: 2, content: {} },
      7,
    ];
    for (const payload of payloads) expectTranslatable(safeParseWebhookPayload(payload).error?.issues);
  });

  it("saw every issue code", () => {
    const codes = Object.keys(german) as EventValidationIssueCode[];
    expect(codes.filter((code) => !seen.has(code))).toEqual([]);
  });
});
