/**
 * The benchmark's inputs, the same on every run (fixed seeds): valid content generated from the
 * spec, and near misses (one mutation of valid content) that the library rejects with exactly one
 * issue. Items of different types are shuffled together, as a server receives them, and each is
 * what `JSON.parse` makes of it.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { type EventType, eventTypes, safeParseEventContent } from "../../src/events/index.js";
import { mutated } from "../../test/support/mutations.js";
import { validContent } from "../../test/support/validContent.js";

const SEED = 20261122;

/** One input: a type and its content. */
export interface Item {
  readonly type: EventType;
  readonly content: unknown;
}

/** A named list of inputs. */
export interface Mix {
  readonly name: string;
  readonly valid: boolean;
  readonly items: readonly Item[];
  /** How many types the items cover. */
  readonly types: number;
}

/**
 * The five types a chat server sees most (text, media, interactive actions, presence, joins and
 * leaves): they also span the library's rules (code points, exactly one of, unions, enums, JSON).
 */
export const hotTypes: readonly EventType[] = [
  "s.message.text",
  "s.message.media",
  "s.message.action",
  "s.presence",
  "s.room.membership",
];

// A small seeded generator (mulberry32), so the shuffle is the same on every run.
function shuffled<T>(values: readonly T[]): T[] {
  let state = SEED;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * The value as a server holds it: parsed from JSON text. (Values built by fast-check keep shapes no
 * parser makes, objects without prototype or in dictionary mode, which every validator reads more
 * slowly than what `JSON.parse` returns.) A value JSON cannot write (`undefined`, `NaN`, a function:
 * near misses of another kind) is kept as it is.
 */
function asReceived(content: unknown): unknown {
  try {
    const text = JSON.stringify(content);
    if (text === undefined) return content;
    const parsed: unknown = JSON.parse(text);
    return isDeepStrictEqual(parsed, content) ? parsed : content;
  } catch {
    return content;
  }
}

function validItems(types: readonly EventType[], perType: number): Item[] {
  return types.flatMap((type) =>
    fc
      .sample(validContent[type], { numRuns: perType, seed: SEED })
      .map((content) => ({ type, content: asReceived(content) })),
  );
}

/** Whether the library rejects the content with exactly one issue. */
function oneIssue(type: EventType, content: unknown): boolean {
  const result = safeParseEventContent(type, content);
  return !result.success && result.error.issues.length === 1 && result.error.omittedIssues === 0;
}

/**
 * Near misses with exactly one issue. The types whose content is any JSON value (`s.delete`,
 * `s.form.submission`, `s.support.open`) have no invalid JSON content, so they contribute none.
 */
function invalidItems(types: readonly EventType[], perType: number): Item[] {
  return types.flatMap((type) =>
    fc
      .sample(validContent[type].chain(mutated), { numRuns: perType * 20, seed: SEED })
      .map(asReceived)
      .filter((content) => oneIssue(type, content))
      .slice(0, perType)
      .map((content) => ({ type, content })),
  );
}

function mix(name: string, valid: boolean, items: Item[]): Mix {
  return { name, valid, items: shuffled(items), types: new Set(items.map((item) => item.type)).size };
}

/** The four content mixes: five hot types and all 32, valid and invalid. */
export function buildMixes(): readonly Mix[] {
  return [
    mix("5 types, valid", true, validItems(hotTypes, 60)),
    mix("32 types, valid", true, validItems(eventTypes, 30)),
    mix("5 types, invalid", false, invalidItems(hotTypes, 60)),
    mix("32 types, invalid", false, invalidItems(eventTypes, 30)),
  ];
}
