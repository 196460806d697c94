/**
 * Hostile values for the `safe…` functions: proxies whose traps throw, revoked proxies, getters that
 * throw or change, huge sparse arrays, deep nesting, cycles, shared-object graphs, megabyte strings
 * and keys, special keys, symbols, exotic objects. Each factory makes a fresh value; the heavy ones
 * are built once and shared (nothing the library does may change them).
 */

const boom = (): never => {
  throw new Error("trap");
};

/** The proxy traps a reader of a value can reach, each made to throw in turn. */
export const readTraps = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"] as const;
export type ReadTrap = (typeof readTraps)[number];

/** `target` behind a proxy whose `trap` throws. */
export function throwingProxy<T extends object>(trap: ReadTrap, target: T): T {
  return new Proxy(target, { [trap]: boom });
}

/** A revoked proxy: every operation on it throws a TypeError. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** An object whose member `key` reads `first` once, then `then` on every later read. */
export function changingMember(key: string, first: unknown, then: unknown, rest: object = {}): object {
  let reads = 0;
  return Object.defineProperty({ ...rest }, key, {
    get: () => (reads++ === 0 ? first : then),
    enumerable: true,
    configurable: true,
  });
}

/** `levels` objects (or arrays) nested in one another. */
export function nested(levels: number, asArray = false, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** `levels` objects each referring twice to the next: 2^levels paths, `levels` objects. */
export function sharedGraph(levels: number, asArray = false): unknown {
  let value: unknown = asArray ? [] : {};
  for (let i = 0; i < levels; i++) value = asArray ? [value, value] : { l: value, r: value };
  return value;
}

/** An array of 2^32 - 1 holes. */
export function hugeSparseArray(): unknown[] {
  const array: unknown[] = [];
  array.length = 2 ** 32 - 1;
  return array;
}

/** An object that contains itself. */
export function cycle(): Record<string, unknown> {
  const value: Record<string, unknown> = { body: "x" };
  value.self = value;
  return value;
}

/** Characters that could forge or hide a log line. */
export const forging = "\u202e\n\r\u0000\u001b[31m\u2028\u2066\u200f";

/** A megabyte of "x" (and a few forging characters first). */
export const megabyte = `${forging}${"x".repeat(2 ** 20)}`;
/** A megabyte-long key of "k". */
export const megabyteKey = `${forging}${"k".repeat(2 ** 20)}`;

/** A plain object with no prototype, holding `members`. */
export function bare(members: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, members);
}

/** An instance of a class with a body: not a plain object, but an object Zod reads members of. */
export class Message {
  body = "x";
}

/** A class whose name is long and carries forging characters. */
export function forgedClassInstance(): object {
  const Named = class {};
  Object.defineProperty(Named, "name", { value: `${forging}${"x".repeat(100)}` });
  return new Named();
}
