/**
 * How the code generators (scripts/validatorGenerator.ts, scripts/guardGenerator.ts) read the Zod
 * schemas: the definition of a node, its checks, which nodes get a function of their own, what an
 * object declares, and which members the options of a union share. One reading, so that the
 * validators and the guards cannot come to disagree on what a schema says.
 */
import type * as z from "zod/mini";
import { type CheckHint, hintOf } from "../src/internal/checkHint.js";

export type Schema = z.core.$ZodType;
export interface Def {
  readonly type: string;
  readonly [key: string]: unknown;
}

export const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def;

/** The checks attached to a schema (length limits, patterns, the library's object rules…). */
export function checksOf(schema: Schema): z.core.$ZodCheck<never>[] {
  const checks = (defOf(schema).checks ?? []) as z.core.$ZodCheck<never>[];
  return checks;
}

/** Stops a generator on a schema it cannot compile, naming what it met. */
export function unsupported(what: string): never {
  throw new Error(`validator generator: unsupported schema: ${what}`);
}

/** Is this schema checked by a function of its own (an object, an array, a discriminated union)? */
export function isContainer(schema: Schema): boolean {
  const def = defOf(schema);
  return (
    def.type === "object" ||
    def.type === "array" ||
    (def.type === "union" && typeof def.discriminator === "string")
  );
}

/** What an object schema declares: its members in order, whether it is strict, its rules. */
export interface ObjectShape {
  readonly shape: Record<string, Schema>;
  readonly keys: readonly string[];
  /** No member but the declared ones (else more members are allowed, as JSON values). */
  readonly strict: boolean;
  readonly hints: readonly CheckHint[];
}

/** Reads an object schema; stops on a catch-all or a check the generators do not know. */
export function objectShapeOf(schema: Schema): ObjectShape {
  const def = defOf(schema);
  const shape = def.shape as Record<string, Schema>;
  const keys = Object.keys(shape);
  const catchall = def.catchall as Schema | undefined;
  const catchallType = catchall === undefined ? "strip" : defOf(catchall).type;
  if (catchallType !== "never" && catchallType !== "unknown")
    unsupported(`an object with a ${catchallType} catchall`);
  const strict = catchallType === "never";
  const hints = checksOf(schema).map(
    (check) => hintOf(check) ?? unsupported("an unknown check on an object"),
  );
  return { shape, keys, strict, hints };
}

/**
 * The members every option of a union declares, in the same order and with the same schema, first
 * (`lead`) and last (`trail`), counted on the first option's members (`keys`, `shape`); a run of
 * fewer than two counts as none (one function per run is worth it from two members). `undefined`
 * when an option is not an object.
 */
export function sharedMembersOf(
  options: readonly Schema[],
):
  | { readonly keys: readonly string[]; readonly shape: Record<string, Schema>; lead: number; trail: number }
  | undefined {
  const shapes = options.map((option) => defOf(option).shape as Record<string, Schema> | undefined);
  if (shapes.some((shape) => shape === undefined)) return undefined;
  const shape = shapes[0]!;
  const keys = Object.keys(shape);
  const same = (keyOf: (keys: readonly string[]) => string | undefined) =>
    shapes.every((other) => {
      const key = keyOf(Object.keys(other!));
      return key === keyOf(keys) && other![key!] === shape[key!];
    });
  let lead = 0;
  while (lead < keys.length && same((names) => names[lead])) lead++;
  if (lead < 2) lead = 0;
  let trail = 0;
  while (trail < keys.length - lead && same((names) => names[names.length - 1 - trail])) trail++;
  if (trail < 2) trail = 0;
  return { keys, shape, lead, trail };
}

/** A literal a schema may hold (an enumeration's entry, a literal's value). */
export type LiteralValue = string | number | boolean | null;

/** The values of a discriminated union's option that select it: its discriminator's literals. */
export function discriminatorValuesOf(option: Schema, discriminator: string): LiteralValue[] {
  const member = (defOf(option).shape as Record<string, Schema> | undefined)?.[discriminator];
  if (member === undefined) unsupported("a discriminated union option without its discriminator");
  const memberDef = defOf(member);
  return memberDef.type === "enum"
    ? Object.values(memberDef.entries as Record<string, string>)
    : memberDef.type === "literal"
      ? (memberDef.values as LiteralValue[])
      : unsupported(`a ${memberDef.type} discriminator`);
}

/** The runtime names a generated file imports, in the order the file lists them (types by their name). */
export const sortedImports = (names: Iterable<string>): string[] =>
  [...names].sort((a, b) => a.replace("type ", "").localeCompare(b.replace("type ", "")));
