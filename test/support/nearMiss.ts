/**
 * Near misses by class: valid content with one to three deliberate edits, each from a class of
 * mistake that a validator can get subtly wrong (a wrong type at one member, a missing or unknown
 * member, a string one code point too long, an enum's neighbour, an impossible date, both or neither
 * of `label` and `body`, `boolean` options with equal values, one bad entry deep in a long array,
 * values JSON cannot carry, `__proto__` as an own key, inherited members, sparse arrays).
 * `mutations.ts` changes one member at random; these aim at the edges on purpose.
 */
import fc from "fast-check";

type Path = (string | number)[];
type Container = Record<string | number, unknown>;

/** The classes of edit; each picks a place in the value where it applies. */
const editKinds = [
  "wrongType",
  "remove",
  "unknownMember",
  "codePoints",
  "enumNeighbour",
  "badDateTime",
  "labelAndBody",
  "booleanOptions",
  "badEntryDeep",
  "nonJson",
  "protoKey",
  "inherited",
  "sparse",
] as const;
/** A class of near miss. */
export type EditKind = (typeof editKinds)[number];

interface Edit {
  readonly kind: EditKind;
  /** Which of the places where the edit applies (modulo their number). */
  readonly at: number;
  /** Which variant of the edit (modulo the number of variants). */
  readonly variant: number;
  readonly json: unknown;
}

const wrongTypes: readonly unknown[] = [0, -1.5, 1e21, "", "s", true, false, null, [], ["x"], {}, { a: 1 }];

class Point {
  x = 1;
}
/** Values that JSON cannot carry, made fresh for each use (some are mutable). */
const nonJsonValues: readonly (() => unknown)[] = [
  () => undefined,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => Number.NEGATIVE_INFINITY,
  () => () => 1,
  () => new Map([["a", 1]]),
  () => new Set(["a"]),
  () => new Date(0),
  () => new Point(),
  () => 10n,
  () => Symbol("s"),
  () => new String("s"),
  () => new Number(1),
  () => new Uint8Array(2),
  () => /x/,
  () => new Error("x"),
  () => [1, undefined],
  () => ({ nested: { deeper: [Number.NaN] } }),
];

const badDateTimes: readonly string[] = [
  "2025-02-29T12:00:00Z",
  "2100-02-29T12:00:00Z",
  "1900-02-29T00:00:00+01:00",
  "2024-02-29T12:00:00Z",
  "2000-02-29T12:00:00Z",
  "2026-02-30T12:00:00Z",
  "2026-04-31T12:00:00Z",
  "2026-13-01T12:00:00Z",
  "2026-00-10T12:00:00Z",
  "2026-11-00T12:00:00Z",
  "2026-11-22",
  "2026-11-22T18:00:00",
  "2026-11-22T18:00Z",
  "2026-11-22T24:00:00Z",
  "2026-11-22T23:60:00Z",
  "2026-11-22T23:59:60Z",
  "2026-11-22t18:00:00z",
  "2026-11-22 18:00:00Z",
  "2026-11-22T18:00:00+0100",
  "2026-11-22T18:00:00+01",
  "2026-11-22T18:00:00+24:00",
  "2026-11-22T18:00:00.Z",
  "2026-11-22T18:00:00.123456789012Z",
  "+02026-11-22T18:00:00Z",
  "2026-11-22T18:00:00Z ",
  " 2026-11-22T18:00:00Z",
  "2026-11-22T18:00:00Z\n",
  "２０２６-11-22T18:00:00Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999-23:59",
];

/** Strings around the length limits (0, 1, 2 and 100 code points): plain, astral and mixed. */
function codePointString(length: number, variant: number): string {
  // A lone surrogate counts as one code point, as in JSON Schema.
  const units = ["a", "😀", "é", "\u{10FFFF}", "\uD83D"];
  let out = "";
  for (let i = 0; i < length; i++) out += units[(variant + (variant % 3 === 0 ? 0 : i)) % units.length];
  return out;
}
const lengthsNearLimits = [0, 1, 2, 3, 50, 99, 100, 101, 102];

const enumNeighbours: readonly ((value: string) => string)[] = [
  (value) => value.toLowerCase(),
  (value) => value.toUpperCase(),
  (value) => value.charAt(0).toUpperCase() + value.slice(1),
  (value) => `${value} `,
  (value) => ` ${value}`,
  (value) => value.slice(0, -1),
  (value) => `${value}x`,
  (value) => value.replaceAll(".", "_"),
  (value) => `${value}\u200b`,
  (value) => `${value}\u0000`,
  () => "s.message.delete",
  () => "TRUE",
  () => "1",
  () => "toString",
  () => "__proto__",
];

const newKeys = ["extra", "x-1", "Body", "label", "body", "mediaId", "value", "options", "multiple", "min"];
const unknownKeys = [
  ...newKeys,
  "center",
  "url",
  "type",
  "content",
  "constructor",
  "toString",
  "hasOwnProperty",
];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}
function isObjectLike(value: unknown): value is Container {
  if (!isContainer(value) || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype) return true;
  // An object whose prototype is itself a plain object literal (an "inherited" edit), not a class instance.
  return Object.getPrototypeOf(proto) === Object.prototype && !Object.hasOwn(proto as object, "constructor");
}

/** Every place in a value, reaching only into arrays and plain(ish) objects, holes skipped. */
function places(value: unknown, at: Path = [], out: { path: Path; value: unknown }[] = []) {
  out.push({ path: at, value });
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (i in value) places(value[i], [...at, i], out);
  } else if (isObjectLike(value)) {
    for (const key of Object.keys(value)) places(value[key], [...at, key], out);
  }
  return out;
}

/** A deep copy of the arrays and plain objects in `value` (the rest shared), keeping holes and prototypes. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) if (i in value) out[i] = copy(value[i]);
    return out;
  }
  if (!isObjectLike(value)) return value;
  const out = Object.create(Object.getPrototypeOf(value)) as Container;
  for (const key of Object.keys(value)) define(out, key, copy(value[key]));
  return out;
}

/** Sets `path` in `root` to what `change` returns for the value there (the root itself for `[]`). */
function replaceAt(root: unknown, path: Path, change: (value: unknown) => unknown): unknown {
  if (path.length === 0) return change(root);
  let parent = root as Container;
  for (const key of path.slice(0, -1)) parent = parent[key] as Container;
  const key = path[path.length - 1]!;
  define(parent, key, change(parent[key]));
  return root;
}

/** Sets an own, enumerable data member (never a prototype, whatever the key). */
function define(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length]!;

function typeClass(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Applies one edit to a copy of `value`; an edit with no place to apply to changes the root's type. */
function applyEdit(value: unknown, edit: Edit): unknown {
  const root = copy(value);
  const all = places(root);
  const where = (test: (place: { path: Path; value: unknown }) => boolean) => all.filter(test);
  const objects = where((place) => isObjectLike(place.value));
  const arrays = where((place) => Array.isArray(place.value));
  const strings = where((place) => typeof place.value === "string");
  const members = where((place) => place.path.length > 0);
  const choose = (candidates: { path: Path; value: unknown }[]) =>
    candidates.length === 0 ? undefined : pick(candidates, edit.at);
  const fallback = () => pick(wrongTypes, edit.variant);

  switch (edit.kind) {
    case "wrongType": {
      const place = pick(all, edit.at);
      const others = wrongTypes.filter((candidate) => typeClass(candidate) !== typeClass(place.value));
      return replaceAt(root, place.path, () => pick(others, edit.variant));
    }
    case "remove": {
      const place = choose(members.filter((candidate) => typeof candidate.path.at(-1) === "string"));
      if (!place) return fallback();
      const parent = place.path
        .slice(0, -1)
        .reduce<Container>((at, key) => at[key] as Container, root as Container);
      delete parent[place.path.at(-1)!];
      return root;
    }
    case "unknownMember": {
      const place = choose(objects);
      if (!place) return fallback();
      define(place.value as Container, pick(unknownKeys, edit.variant), edit.json);
      return root;
    }
    case "codePoints": {
      const place = choose(strings);
      const text = codePointString(pick(lengthsNearLimits, edit.variant), Math.floor(edit.variant / 9));
      return place ? replaceAt(root, place.path, () => text) : text;
    }
    case "enumNeighbour": {
      const place = choose(strings);
      if (!place) return fallback();
      return replaceAt(root, place.path, (text) => pick(enumNeighbours, edit.variant)(text as string));
    }
    case "badDateTime": {
      // Date-times where there are some, any string otherwise.
      const dated = strings.filter((candidate) => /^\d{4}-/.test(candidate.value as string));
      const place = choose(dated.length > 0 ? dated : strings);
      const bad = pick(badDateTimes, edit.variant);
      return place ? replaceAt(root, place.path, () => bad) : bad;
    }
    case "labelAndBody": {
      const withOne = objects.filter((candidate) => "label" in (candidate.value as Container));
      const place = choose(withOne.length > 0 ? withOne : objects);
      if (!place) return fallback();
      const target = place.value as Container;
      const hasLabel = Object.hasOwn(target, "label");
      const hasBody = Object.hasOwn(target, "body");
      if (hasLabel && hasBody) {
        delete target.label;
        delete target.body;
      } else if (hasLabel || hasBody) {
        target[hasLabel ? "body" : "label"] = edit.variant % 2 === 0 ? "other" : "";
      } else {
        target.label = "l";
        target.body = "b";
      }
      return root;
    }
    case "booleanOptions": {
      const optionArrays = arrays.filter((candidate) =>
        (candidate.value as unknown[]).some((entry) => isObjectLike(entry) && "value" in entry),
      );
      const place = choose(optionArrays.length > 0 ? optionArrays : arrays);
      if (!place) return fallback();
      const options = (place.value as unknown[]).map((entry) => (isObjectLike(entry) ? entry : {}));
      const variants: (() => unknown)[] = [
        () => options.map((entry) => ({ ...entry, value: "true" })),
        () => options.map((entry) => ({ ...entry, value: "false" })),
        () => [...options, { label: "again", value: "true" }],
        () => options.slice(0, 1),
        () => [],
        () => options.map((entry, index) => ({ ...entry, value: index === 0 ? "TRUE" : entry.value })),
        () => options.map((entry, index) => ({ ...entry, value: index === 0 ? true : entry.value })),
        () => options.map((entry) => ({ label: entry.label })),
        () => options.map((entry) => ({ ...entry, url: null })),
        () => [...options].reverse(),
      ];
      return replaceAt(root, place.path, () => pick(variants, edit.variant)());
    }
    case "badEntryDeep": {
      const place = choose(arrays);
      if (!place) return fallback();
      const entries = place.value as unknown[];
      const long: unknown[] = [];
      const size = 5 + (edit.variant % 40);
      for (let i = 0; i < size; i++)
        long.push(entries.length === 0 ? "x" : copy(entries[i % entries.length]));
      const bad = edit.variant % 3 === 0 ? pick(nonJsonValues, edit.at)() : pick(wrongTypes, edit.at);
      long[edit.at % size] = bad;
      return replaceAt(root, place.path, () => long);
    }
    case "nonJson": {
      const bad = pick(nonJsonValues, edit.variant)();
      if (edit.variant % 2 === 0) {
        const place = choose(objects);
        if (place) {
          define(place.value as Container, pick(newKeys, edit.at), bad);
          return root;
        }
      }
      return replaceAt(root, pick(all, edit.at).path, () => bad);
    }
    case "protoKey": {
      // What JSON.parse makes of a "__proto__" member: an own, enumerable data property.
      const place = choose(objects);
      if (!place) return fallback();
      define(place.value as Container, "__proto__", edit.json);
      return root;
    }
    case "inherited": {
      const place = choose(objects);
      if (!place) return fallback();
      const own = place.value as Container;
      const keys = Object.keys(own);
      const moved = edit.variant % 2 === 0 && keys.length > 0 ? pick(keys, edit.at) : undefined;
      const proto: Container =
        moved === undefined ? { [pick(newKeys, edit.at)]: edit.json } : { [moved]: own[moved] };
      const child = Object.create(proto) as Container;
      for (const key of keys) if (key !== moved) define(child, key, own[key]);
      return replaceAt(root, place.path, () => child);
    }
    case "sparse": {
      const place = choose(arrays);
      if (!place) {
        const holes: unknown[] = [];
        holes.length = 1 + (edit.variant % 3);
        return holes;
      }
      const entries = place.value as unknown[];
      if (edit.variant % 2 === 0 && entries.length > 0) delete entries[edit.at % entries.length];
      else entries.length += 1 + (edit.variant % 2);
      return root;
    }
  }
}

const editOf = (kinds: readonly EditKind[]): fc.Arbitrary<Edit> =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    at: fc.nat(),
    variant: fc.nat({ max: 1000 }),
    json: fc.oneof(fc.constantFrom<unknown>("v", 1, true, null, {}, []), fc.jsonValue({ maxDepth: 1 })),
  });

/**
 * One to three near-miss edits (mostly one) applied, in turn, to a copy of `value`; `kinds` limits
 * them to some classes (all by default).
 */
export function nearMiss(value: unknown, kinds: readonly EditKind[] = editKinds): fc.Arbitrary<unknown> {
  const edit = editOf(kinds);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.tuple(edit) },
      { weight: 1, arbitrary: fc.array(edit, { minLength: 2, maxLength: 3 }) },
    )
    .map((edits) => edits.reduce<unknown>(applyEdit, value));
}

/**
 * Whether a value is what `JSON.parse` could have made: strings, finite numbers, booleans, `null`,
 * dense arrays and objects whose prototype is `Object.prototype`, with only own enumerable data
 * members (an own `__proto__` member included, as `JSON.parse` makes one), and no cycle.
 */
export function isJsonRepresentable(value: unknown, ancestors: object[] = []): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || ancestors.includes(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== (Array.isArray(value) ? Array.prototype : Object.prototype)) return false;
  const keys = Reflect.ownKeys(value);
  if (Array.isArray(value)) {
    // Own keys of a dense array: each index, then "length".
    if (keys.length !== value.length + 1) return false;
  }
  for (const key of keys) {
    if (typeof key === "symbol") return false;
    if (Array.isArray(value) && key === "length") continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!("value" in descriptor) || !descriptor.enumerable) return false;
    if (!isJsonRepresentable(descriptor.value, [...ancestors, value])) return false;
  }
  if (!Array.isArray(value)) {
    // Inherited enumerable members are invisible to JSON but not to `for…in` validators.
    for (const key in value) if (!Object.hasOwn(value, key)) return false;
  }
  return true;
}
