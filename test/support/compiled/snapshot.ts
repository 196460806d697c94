/**
 * A deep description of a value, for telling whether a call changed it: every own key (symbols and
 * non-enumerable ones included), each member's descriptor, holes, prototypes, extensibility, and
 * which objects are shared (by a number per object). Getters are recorded, never called; functions
 * and prototypes are named by identity, never compared member by member.
 */
export function snapshot(value: unknown): unknown {
  const ids = new Map<unknown, number>();
  const describe = (node: unknown): unknown => {
    if (typeof node === "number" && Number.isNaN(node)) return { NaN: true };
    if (typeof node === "bigint" || typeof node === "symbol") return { primitive: String(node) };
    if ((typeof node !== "object" && typeof node !== "function") || node === null) return node;
    const seen = ids.get(node);
    if (seen !== undefined) return { ref: seen };
    const id = ids.size;
    ids.set(node, id);
    if (typeof node === "function") return { id, function: identity(node) };
    const members = Reflect.ownKeys(node).map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(node, key)!;
      return {
        key: typeof key === "symbol" ? { symbol: String(key) } : key,
        enumerable: descriptor.enumerable,
        configurable: descriptor.configurable,
        ...("value" in descriptor
          ? { value: describe(descriptor.value), writable: descriptor.writable }
          : { get: identity(descriptor.get), set: identity(descriptor.set) }),
      };
    });
    return {
      id,
      prototype: identity(Object.getPrototypeOf(node)),
      extensible: Object.isExtensible(node),
      members,
      ...internals(node, describe),
    };
  };
  return describe(value);
}

/** The internal state of a Map, a Set or a Date (an object that only inherits from one has none). */
function internals(node: object, describe: (value: unknown) => unknown): object {
  try {
    if (node instanceof Map) {
      return {
        entries: [...Map.prototype.entries.call(node)].map(([key, item]) => [describe(key), describe(item)]),
      };
    }
    if (node instanceof Set) return { entries: [...Set.prototype.values.call(node)].map(describe) };
    if (node instanceof Date) return { time: Date.prototype.getTime.call(node) };
  } catch {
    // Not a real one: its members say everything.
  }
  return {};
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;
/** A number that stands for one object or function for as long as it lives (`null`, `undefined` as they are). */
function identity(value: unknown): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return value;
  let found = identities.get(value);
  if (found === undefined) {
    found = nextIdentity++;
    identities.set(value, found);
  }
  return { identity: found };
}

/** Every object reachable from a value through own members (getters not called). */
export function reachableObjects(value: unknown, out = new Set<object>()): Set<object> {
  if ((typeof value !== "object" && typeof value !== "function") || value === null || out.has(value))
    return out;
  out.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if ("value" in descriptor) reachableObjects(descriptor.value, out);
  }
  return out;
}

/**
 * Whether a value is plain data all the way down: primitives, and arrays and objects whose
 * prototype is the realm's `Array.prototype` or `Object.prototype`, with only own enumerable data
 * members. Returns the path of the first place where it is not, or `undefined`.
 */
export function findNonPlainData(value: unknown, path: (string | number)[] = []): string | undefined {
  if (typeof value === "function") return `${path.join(".")}: a function`;
  if (typeof value !== "object" || value === null) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== (Array.isArray(value) ? Array.prototype : Object.prototype))
    return `${path.join(".")}: prototype`;
  for (const key of Reflect.ownKeys(value)) {
    if (Array.isArray(value) && key === "length") continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (typeof key === "symbol" || !descriptor.enumerable) return `${path.join(".")}: hidden member`;
    if (!("value" in descriptor)) return `${[...path, key].join(".")}: an accessor`;
    const found = findNonPlainData(descriptor.value, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A form of a value for deep comparison with `toStrictEqual`, free of its blind spots: an own
 * member named `constructor` (which `toStrictEqual` reads as the object's class) is compared like
 * any other. Objects become their prototype's kind and their members sorted by key (`undefined`
 * members kept), arrays their length and entries (holes marked). Member order is not compared.
 */
export function canonical(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  const kind =
    proto === Object.prototype
      ? "object"
      : proto === Array.prototype
        ? "array"
        : proto === null
          ? "null-prototype"
          : `instance of ${String((proto as { constructor?: { name?: unknown } }).constructor?.name)}`;
  if (Array.isArray(value)) {
    const entries: unknown[] = [];
    for (let i = 0; i < value.length; i++) entries.push(i in value ? canonical(value[i]) : { hole: true });
    return { kind, entries };
  }
  const members = Object.keys(value)
    .sort()
    .map((key) => [key, canonical((value as Record<string, unknown>)[key])]);
  return { kind, members };
}
