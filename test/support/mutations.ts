/**
 * Near-misses: valid content with one change somewhere inside it (a member replaced, removed or
 * added, at any depth). They probe the boundaries of the schemas far better than random JSON.
 */
import fc from "fast-check";

type Path = (string | number)[];

/** Values that sit on the spec's boundaries: lengths, enums, types, date-times. */
const interesting: fc.Arbitrary<unknown> = fc.constantFrom(
  "",
  "x",
  "ab",
  "abc",
  "😀😀",
  "😀😀😀",
  "a".repeat(100),
  "a".repeat(101),
  "😀".repeat(100),
  "😀".repeat(101),
  0,
  -1.5,
  1e21,
  true,
  false,
  null,
  [],
  {},
  [""],
  ["a", 1],
  [{}],
  "true",
  "false",
  { label: "Yes", value: "true" },
  { value: "v", label: "l" },
  "2026-11-22T18:00:00Z",
  "2026-02-29T18:00:00Z",
  "2026-11-22T18:00:00",
  "RUNNING",
  "CANCELLED",
  "join",
  "invite",
  "Agent",
  "CRM",
  "Bot",
  "Auto",
  "text/plain",
  "text/html",
  "s.message.text",
  "SUCCESS",
  "ONLINE",
  "boolean",
  "select",
  "date",
  "button",
);

const anyValue = fc.oneof(interesting, fc.jsonValue({ maxDepth: 2 }));
const newKey = fc.constantFrom(
  "label",
  "body",
  "mediaId",
  "options",
  "multiple",
  "expires",
  "url",
  "type",
  "value",
  "extra",
);

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) paths(item, [...at, index], out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out);
  }
  return out;
}

function update(
  value: unknown,
  path: Path,
  change: (parent: unknown, key: string | number) => void,
): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return copy;
  let parent: unknown = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
  change(parent, path[path.length - 1]!);
  return copy;
}

type Mutation =
  | { kind: "replace"; value: unknown }
  | { kind: "remove" }
  | { kind: "add"; key: string; value: unknown };

/** One change, somewhere in `value`. */
export function mutated(value: unknown): fc.Arbitrary<unknown> {
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    anyValue.map((replacement): Mutation => ({ kind: "replace", value: replacement })),
    fc.constant<Mutation>({ kind: "remove" }),
    fc.tuple(newKey, anyValue).map(([key, added]): Mutation => ({ kind: "add", key, value: added })),
  );
  return fc.tuple(fc.constantFrom(...paths(value)), mutation).map(([path, change]) => {
    if (change.kind === "replace" && path.length === 0) return change.value;
    if (change.kind === "add") {
      return update(value, [...path, change.key], (parent, key) => {
        if (typeof parent === "object" && parent !== null && !Array.isArray(parent)) {
          (parent as Record<string | number, unknown>)[key] = change.value;
        }
      });
    }
    if (path.length === 0) return value;
    return update(value, path, (parent, key) => {
      if (Array.isArray(parent) && change.kind === "remove") parent.splice(Number(key), 1);
      else if (change.kind === "remove") delete (parent as Record<string | number, unknown>)[key];
      else (parent as Record<string | number, unknown>)[key] = change.value;
    });
  });
}
