/**
 * Turns the library's Zod content schemas into guards: plain TypeScript functions that give the
 * verdict of the generated validators (scripts/validatorGenerator.ts) and nothing else. A guard
 * reads what the validator reads, in the same order, and counts values and levels as the
 * validator's run does, so that its verdict under the limits is the validator's; it stops at the
 * first problem, copies nothing and writes no issue. `npm run build:validators` writes the result
 * to `src/events/compiledGuards.ts` and the public functions to `src/events/contentGuards.ts`; a
 * test regenerates both and fails when the committed files are stale.
 *
 * The schema vocabulary is the content schemas' (a subset of the validators'); anything else stops
 * the generator with an error naming it.
 */

import { eventContentSchemas } from "../src/events/eventContentSchemas.js";
import { eventTypes } from "../src/events/eventTypes.js";
import { hintOf } from "../src/internal/checkHint.js";
import { DATE_TIME_PATTERN } from "../src/internal/dateTime.js";
import {
  discriminatorValuesOf,
  isContainer,
  objectShapeOf,
  sharedMembersOf,
  sortedImports,
} from "./schemaShapes.js";
import {
  access,
  capitalized,
  checksOf,
  type Def,
  defOf,
  lit,
  type Schema,
  sampleLiteral,
  schemaNames,
  unsupported,
} from "./validatorGenerator.js";

/** A statement that returns `false` when `condition` holds. */
const fails = (condition: string): string => `if (${condition}) return false;`;

/** Members shared, in the same order, by every option of a union (first or last): one function. */
interface SharedMembers {
  readonly from: number;
  readonly to: number;
  readonly fn: string;
}

class GuardGenerator {
  private readonly functions: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly bodies = new Map<string, string>();
  private counter = 0;
  readonly usedRuntime = new Set<string>(["type Budget"]);
  usesDateTime = false;
  usesCodePoints = false;
  usesPlainObject = false;
  usesLast = false;

  private use(name: string): string {
    this.usedRuntime.add(name);
    return name;
  }

  /**
   * The name of the guard of `schema` (a container), made once per schema and capture; a guard whose
   * body another already has is that one. `capture` names a member whose value the guard leaves in
   * `last` (the boolean options' values, compared by their array).
   */
  function(schema: Schema, capture?: string): string {
    const id = `${this.idOf(schema)}:${capture ?? ""}`;
    const known = this.names.get(id);
    if (known !== undefined) return known;
    const def = defOf(schema);
    let body: string;
    if (def.type === "object") body = this.objectBody(schema, capture);
    else if (capture !== undefined) return unsupported(`a capture in a ${def.type}`);
    else if (def.type === "array") body = this.arrayBody(schema);
    else if (def.type === "union" && typeof def.discriminator === "string")
      body = this.discriminatedBody(schema);
    else return unsupported(`a ${def.type} as a function`);
    let name = this.bodies.get(body);
    if (name === undefined) {
      name = `q${this.counter++}`;
      this.bodies.set(body, name);
      this.functions.push(`function ${name}(x: unknown, b: Budget, d: number): boolean {\n${body}\n}`);
    }
    this.names.set(id, name);
    return name;
  }

  private readonly ids = new Map<Schema, number>();
  private idOf(schema: Schema): number {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(schema, id);
    }
    return id;
  }

  /** An expression true when the value in `v`, `depth` levels down, is not valid. */
  invalid(schema: Schema, v: string, depth: string): string {
    const def = defOf(schema);
    if (isContainer(schema)) return `!${this.function(schema)}(${v}, b, ${depth})`;
    switch (def.type) {
      case "optional":
        return `${v} !== undefined && (${this.invalid(def.innerType as Schema, v, depth)})`;
      case "nullable":
        return `${v} !== null && (${this.invalid(def.innerType as Schema, v, depth)})`;
      case "string":
        return this.stringInvalid(schema, v);
      case "number":
        this.noChecks(schema);
        return `typeof ${v} !== "number" || !Number.isFinite(${v})`;
      case "boolean":
        this.noChecks(schema);
        return `typeof ${v} !== "boolean"`;
      case "enum":
      case "literal": {
        this.noChecks(schema);
        const values =
          def.type === "enum"
            ? Object.values(def.entries as Record<string, string>)
            : (def.values as (string | number | boolean | null)[]);
        return values.map((item) => `${v} !== ${lit(item)}`).join(" && ");
      }
      case "custom":
        return this.jsonInvalid(schema, v, depth);
      case "union":
        return this.unionInvalid(schema, v, depth);
      default:
        return unsupported(def.type);
    }
  }

  private noChecks(schema: Schema): void {
    if (checksOf(schema).length > 0) unsupported(`checks on a ${defOf(schema).type}`);
  }

  /** An expression true when `v` is not a string, or fails a check of `schema`. */
  private stringInvalid(schema: Schema, v: string): string {
    const def = defOf(schema);
    const tests = [`typeof ${v} !== "string"`];
    if (def.format !== undefined) {
      if (def.format !== "date-time" || String(def.pattern) !== String(DATE_TIME_PATTERN))
        unsupported(`string format ${String(def.format)}`);
      this.usesDateTime = true;
      tests.push(`!DATE_TIME.test(${v})`);
    }
    for (const check of checksOf(schema)) {
      const checkDef = check._zod.def as unknown as Def;
      const hint = hintOf(check);
      if (checkDef.check === "min_length") {
        if (checkDef.minimum !== 1) unsupported(`a minimum length of ${String(checkDef.minimum)}`);
        tests.push(`${v}.length < 1`);
      } else if (hint?.rule === "max_code_points") {
        this.usesCodePoints = true;
        tests.push(`(${v}.length > ${hint.maximum} && codePointLength(${v}) > ${hint.maximum})`);
      } else if (hint?.rule === "not_blank") {
        tests.push(`!/\\S/.test(${v})`);
      } else {
        unsupported(`string check ${String(checkDef.check)}`);
      }
    }
    return tests.join(" || ");
  }

  /** An expression true when `v` is not a JSON value (not a plain object, when the schema requires one). */
  private jsonInvalid(schema: Schema, v: string, depth: string): string {
    const def = defOf(schema);
    if (typeof def.requireObject !== "boolean") unsupported("a custom schema other than a JSON value");
    if (checksOf(schema).length > 0) unsupported("a check on a JSON value");
    const json = `!${this.use("isJsonAt")}(b, ${v}, ${depth})`;
    if (!def.requireObject) return json;
    this.usesPlainObject = true;
    return `!isPlainObject(${v}) || ${json}`;
  }

  /** An expression true when `v` matches no alternative of a union told apart by type. */
  private unionInvalid(schema: Schema, v: string, depth: string): string {
    const tests = (defOf(schema).options as Schema[]).map((option) => {
      const type = defOf(option).type;
      if (type === "array") {
        if (checksOf(option).length > 0 || (defOf(option) as { length?: number }).length !== undefined)
          unsupported("a checked array in a union");
        return `!(Array.isArray(${v}) && ${this.function(option)}(${v}, b, ${depth}))`;
      }
      this.noChecks(option);
      if (type === "string") return `typeof ${v} !== "string"`;
      if (type === "number") return `!(typeof ${v} === "number" && Number.isFinite(${v}))`;
      if (type === "boolean") return `typeof ${v} !== "boolean"`;
      return unsupported(`a ${type} in a union`);
    });
    return tests.join(" && ");
  }

  /** Statements that read and check members `from` to `to` of `shape` into `v<i>`. */
  private members(
    shape: Record<string, Schema>,
    keys: readonly string[],
    from: number,
    to: number,
  ): string[] {
    const lines: string[] = [];
    for (let i = from; i < to; i++) {
      const key = keys[i]!;
      if (key === "__proto__") unsupported("a member named __proto__");
      lines.push(`const v${i} = ${access("x", key)};`, fails(this.invalid(shape[key]!, `v${i}`, "d + 1")));
    }
    return lines;
  }

  /**
   * Statements that ask, of each optional member from `from` to `to` found `undefined`, whether the
   * object has it (`key in x`), as a validator asks to copy it: a verdict alone needs no answer, but
   * the question may throw (a proxy's `has` trap), and then the validator's verdict is that the
   * value cannot be read.
   */
  private presence(
    shape: Record<string, Schema>,
    keys: readonly string[],
    from: number,
    to: number,
  ): string[] {
    const lines: string[] = [];
    for (let i = from; i < to; i++) {
      if (defOf(shape[keys[i]!]!).type === "optional")
        lines.push(`if (v${i} === undefined) ${lit(keys[i])} in x;`);
    }
    return lines;
  }

  private readonly groups = new Map<Schema, SharedMembers>();
  private readonly tails = new Map<Schema, SharedMembers>();

  /**
   * Finds the members that every option of a union declares, in the same order, first and last
   * (as the validator generator does), and makes one guard for each run of them.
   */
  private share(options: readonly Schema[]): void {
    const shared = sharedMembersOf(options);
    if (shared === undefined) return;
    const { keys, lead, trail } = shared;
    if (lead > 0) this.shared(options, this.groups, keys, 0, lead, "p");
    if (trail > 0) this.shared(options, this.tails, keys, keys.length - trail, keys.length, "t");
  }

  private shared(
    options: readonly Schema[],
    into: Map<Schema, SharedMembers>,
    keys: readonly string[],
    from: number,
    to: number,
    prefix: string,
  ): void {
    const shape = defOf(options[0]!).shape as Record<string, Schema>;
    const fn = `${prefix}${this.counter++}`;
    const body = [
      ...this.members(shape, keys, from, to),
      ...this.presence(shape, keys, from, to),
      "return true;",
    ].join("\n");
    this.functions.push(
      `function ${fn}(x: Record<string, unknown>, b: Budget, d: number): boolean {\n${body}\n}`,
    );
    for (const option of options) {
      // Each option's own members are numbered from its own shape: the shared run must sit at the
      // same indexes in every option (it does, being first or last with the same names).
      const size = Object.keys(defOf(option).shape as object).length;
      const shift = prefix === "t" ? size - keys.length : 0;
      into.set(option, { from: from + shift, to: to + shift, fn });
    }
  }

  private objectBody(schema: Schema, capture: string | undefined): string {
    const { shape, keys, strict, hints } = objectShapeOf(schema);
    const group = this.groups.get(schema);
    const tail = this.tails.get(schema);
    const from = group?.to ?? 0;
    const to = tail?.from ?? keys.length;
    const lines = [fails(`!${this.use("isObjectAt")}(b, x, d)`)];
    if (group !== undefined) lines.push(fails(`!${group.fn}(x, b, d)`));
    lines.push(...this.members(shape, keys, from, to));
    if (tail !== undefined) lines.push(fails(`!${tail.fn}(x, b, d)`));
    const undeclared = keys.map((key) => `k !== ${lit(key)}`).join(" && ");
    if (strict) {
      lines.push(
        keys.length === 0
          ? "for (const _ in x) return false;"
          : `for (const k in x) {\nb.nodes--;\nif (${undeclared}) return false;\n}`,
      );
    } else {
      if (!hints.some((hint) => hint.rule === "extras_are_json"))
        unsupported("an object that allows more members without checking them");
      lines.push(
        "let e: string[] | undefined;",
        `for (const k in x) {\nb.nodes--;\nif (${keys.length === 0 ? "true" : undeclared}) {\nif (k === "__proto__") ${this.use("unread")}(b, x[k]);\nelse if (e === undefined) e = [k];\nelse e.push(k);\n}\n}`,
      );
    }
    const own = (key: string): number => {
      const index = keys.indexOf(key);
      if (index < from || index >= to)
        unsupported(`a check of ${key}, which this guard does not read itself`);
      return index;
    };
    lines.push(...this.presence(shape, keys, from, to));
    for (const hint of hints) {
      if (hint.rule === "exactly_one_of") {
        const count = hint.keys.map((key) => `(v${own(key)} !== undefined ? 1 : 0)`).join(" + ");
        lines.push(`if (${count} !== 1) return false;`);
      } else if (hint.rule === "extras_are_json") {
        lines.push(`if (e) for (const k of e) ${fails(`!${this.use("isJsonAt")}(b, x[k], d + 1)`)}`);
      } else {
        unsupported(`an object check ${hint.rule}`);
      }
    }
    if (capture !== undefined) lines.push(`last = v${own(capture)};`);
    lines.push("return true;");
    return lines.join("\n");
  }

  private arrayBody(schema: Schema): string {
    const def = defOf(schema);
    const element = def.element as Schema;
    const length = (def as { length?: number }).length;
    const lines = [fails(`!${this.use("isArrayAt")}(b, x, d)`), "const n = x.length;"];
    if (length !== undefined) lines.push(`if (n !== ${length}) return false;`);
    let booleanOptions = false;
    let minimum: number | undefined;
    for (const check of checksOf(schema)) {
      const checkDef = check._zod.def as unknown as Def;
      if (checkDef.check === "min_length") minimum = Number(checkDef.minimum);
      else if (hintOf(check)?.rule === "boolean_options") {
        if (length !== 2) unsupported("boolean options that are not a pair");
        booleanOptions = true;
      } else unsupported(`array check ${String(checkDef.check)}`);
    }
    if (booleanOptions) {
      this.usesLast = true;
      // The two options' values, as the guards of the options read them, must differ.
      const fn = this.function(element, "value");
      lines.push(
        "let f: unknown;",
        `for (let i = 0; i < n; i++) {\n${fails(`!${fn}(x[i], b, d + 1)`)}\nif (i === 0) f = last;\n}`,
        "if (f === last) return false;",
      );
    } else if (isContainer(element)) {
      lines.push(`for (let i = 0; i < n; i++) ${fails(`!${this.function(element)}(x[i], b, d + 1)`)}`);
    } else {
      lines.push(
        `for (let i = 0; i < n; i++) {\nconst v = x[i];\n${fails(this.invalid(element, "v", "d + 1"))}\n}`,
      );
    }
    if (minimum !== undefined) lines.push(`if (n < ${minimum}) return false;`);
    lines.push("return true;");
    return lines.join("\n");
  }

  private discriminatedBody(schema: Schema): string {
    const def = defOf(schema);
    const discriminator = def.discriminator as string;
    const options = def.options as Schema[];
    this.share(options);
    const cases = options.map((option) => {
      const values = discriminatorValuesOf(option, discriminator);
      return `${values.map((item) => `case ${lit(item)}:`).join("\n")}\nreturn ${this.function(option)}(x, b, d);`;
    });
    return [
      'if (typeof x !== "object" || x === null || Array.isArray(x)) return false;',
      `switch (${access("(x as Record<string, unknown>)", discriminator)}) {\n${cases.join("\n")}\n}`,
      "return false;",
    ].join("\n");
  }

  /** The guard of a type's content: a container's, or one of its own for a JSON value. */
  entry(schema: Schema): string {
    if (isContainer(schema)) return this.function(schema);
    const def = defOf(schema);
    const body =
      def.type === "custom" && def.requireObject === false && checksOf(schema).length === 0
        ? `return ${this.use("isJsonAt")}(b, x, d);`
        : `return !(${this.invalid(schema, "x", "d")});`;
    let name = this.bodies.get(body);
    if (name === undefined) {
      name = `q${this.counter++}`;
      this.bodies.set(body, name);
      this.functions.push(`function ${name}(x: unknown, b: Budget, d: number): boolean {\n${body}\n}`);
    }
    return name;
  }

  source(entries: readonly string[]): string {
    const runtime = sortedImports(this.usedRuntime);
    const imports = [`import { ${runtime.join(", ")}, type Guard } from "../internal/guardRuntime.js";`];
    if (this.usesCodePoints)
      imports.unshift('import { codePointLength } from "../internal/codePointLength.js";');
    if (this.usesPlainObject) imports.push('import { isPlainObject } from "../internal/isPlainObject.js";');
    const constants = this.usesDateTime ? [`const DATE_TIME = ${String(DATE_TIME_PATTERN)};`] : [];
    if (this.usesLast)
      constants.push(
        "// The value of the last boolean option checked, set by its guard and read by the guard of its",
        "// pair right after (nothing runs in between: a getter reads before the value is set).",
        "let last: unknown;",
      );
    return [...imports, "", ...constants, "", ...this.functions, "", ...entries].join("\n");
  }
}

/** The module of the guards, before formatting. */
export function generateGuards(): string {
  const generator = new GuardGenerator();
  const names = schemaNames();
  const aliases: string[] = [];
  const table: string[] = [];
  for (const type of eventTypes) {
    const name = names.get(type)!;
    const guard = generator.entry(eventContentSchemas[type] as Schema);
    aliases.push(`${guard} as guard${capitalized(name)}`);
    table.push(`${lit(type)}: ${guard},`);
  }
  const entries = [
    `// The guard of each type's content (\`guardMessageTextContent\` for \`messageTextContent\`), exported by\n// the names of the functions themselves, so that a bundle of one holds no other binding.\nexport { ${aliases.join(", ")} };`,
    `/** The guard of each type's content. */\nexport const contentGuards: Readonly<Record<EventType, Guard>> = {\n${table.join("\n")}\n};`,
  ];
  const header = [
    "// Generated by `npm run build:validators` (scripts/guardGenerator.ts) from the Zod content",
    "// schemas: do not edit. A test regenerates it and fails when this file is stale.",
    'import type { EventType } from "./eventTypes.js";',
  ].join("\n");
  return `${header}\n${generator.source(entries)}\n`;
}

/** The module of the public per-type guards, before formatting. */
export function generateContentGuards(): string {
  const names = schemaNames();
  const guards: string[] = [];
  const functions: string[] = [];
  for (const type of eventTypes) {
    const name = names.get(type)!;
    const guard = `guard${capitalized(name)}`;
    const parser = `safeParse${capitalized(name)}`;
    const predicate = `is${capitalized(name)}`;
    guards.push(guard);
    functions.push(`/**
 * Tells whether a value is valid content of a \`${type}\` event, and never throws: the verdict of
 * {@link ${parser}} (the same rules, the same limits) without its copy, its issues or its
 * messages, as code generated from \`${name}\` that a bundler keeps without the other types. A
 * value that throws when read (a getter, a proxy) is not valid.
 *
 * Exported from \`messaging-events/events\` and \`messaging-events\`.
 *
 * @example
 * \`\`\`ts
 * import { ${predicate} } from "messaging-events/events";
 *
 * console.log(${predicate}(${sampleLiteral(eventContentSchemas[type] as Schema)})); // true
 * \`\`\`
 */
export function ${predicate}(value: unknown, limits?: ValidationLimits): value is EventContent<${lit(type)}> {
  return runGuard(${guard}, value, limits);
}`);
  }
  const header = [
    "// Generated by `npm run build:validators` (scripts/guardGenerator.ts) from the Zod content",
    "// schemas: do not edit. A test regenerates it and fails when this file is stale.",
    `import { ${guards.join(", ")} } from "./compiledGuards.js";`,
    'import type { EventContent } from "./EventContent.js";',
    "// For the links in the documentation.",
    `import type { ${eventTypes.map((type) => `safeParse${capitalized(names.get(type)!)}`).join(", ")} } from "./contentParsers.js";`,
    'import { runGuard } from "./runGuard.js";',
    'import type { ValidationLimits } from "./ValidationLimits.js";',
  ].join("\n");
  return `${header}\n\n${functions.join("\n\n")}\n`;
}
