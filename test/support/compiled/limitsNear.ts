/**
 * Limits set right at a value's own size: its number of values and its nesting depth, counted once
 * over own members (as `Object.keys` sees them) and once over every enumerable member (as `for…in`
 * sees them, inherited ones included), each minus one, exactly, and plus one. Two validators that
 * count differently disagree on one of these.
 */
import fc from "fast-check";
import type { ValidationLimits } from "../../../src/events/index.js";

interface Size {
  nodes: number;
  depth: number;
}

const CAP = 100_000;

function measure(
  value: unknown,
  keys: (object: object) => string[],
  level: number,
  ancestors: object[],
  size: Size,
) {
  size.nodes++;
  size.depth = Math.max(size.depth, level);
  if (typeof value !== "object" || value === null || ancestors.includes(value) || size.nodes > CAP) return;
  let members: [string | number, unknown][];
  try {
    members = Array.isArray(value)
      ? Array.from({ length: Math.min(value.length, CAP) }, (_, index) => [index, value[index]])
      : keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  } catch {
    return;
  }
  for (const [, member] of members) measure(member, keys, level + 1, [...ancestors, value], size);
}

const ownKeys = (object: object): string[] => Object.keys(object);
const enumerableKeys = (object: object): string[] => {
  const keys: string[] = [];
  for (const key in object) keys.push(key);
  return keys;
};

/** The sizes of a value, counted over own members and over every enumerable one. */
export function sizesOf(value: unknown): Size[] {
  return [ownKeys, enumerableKeys].map((keys) => {
    const size = { nodes: 0, depth: 0 };
    measure(value, keys, 0, [], size);
    return size;
  });
}

/** Limits at, just under and just over the sizes of `value`, sometimes with few issues allowed. */
export function limitsNear(value: unknown): fc.Arbitrary<ValidationLimits> {
  const candidates = sizesOf(value).flatMap(({ nodes, depth }) =>
    [-1, 0, 1].flatMap((offset) => [
      { maxNodes: Math.max(1, nodes + offset) },
      { maxDepth: Math.max(1, depth + offset) },
    ]),
  );
  return fc
    .tuple(fc.constantFrom(...candidates), fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }))
    .map(([limit, maxIssues]) => (maxIssues === undefined ? limit : { ...limit, maxIssues }));
}
