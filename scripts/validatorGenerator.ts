/**
 * Turns the library's Zod content schemas into plain TypeScript validators that give exactly the
 * verdict, data and issues the Zod-interpreted validation gives (see src/events/interpretEvent.ts),
 * without building any code at run time. `npm run build:validators` writes the result to
 * `src/events/compiledValidators.ts`; a test regenerates it and fails when the committed file is stale.
 *
 * Only the schema vocabulary the library uses is supported (strings with their checks, numbers,
 * booleans, enums, literals, optional, nullable, strict and loose objects with the library's checks,
 * discriminated unions, unions told apart by their type, bounded arrays, JSON members); anything else
 * stops the generator with an error naming it, so a new kind of schema cannot be compiled wrongly.
 */

import { readdirSync } from "node:fs";
import type * as z from "zod/mini";
import { eventContentSchemas } from "../src/events/eventContentSchemas.js";
import { type EventType, eventTypes } from "../src/events/eventTypes.js";
import { IDEMPOTENCY_KEY_PATTERN } from "../src/idempotency/idempotencyKey.js";
import { type CheckHint, hintOf } from "../src/internal/checkHint.js";
import { DATE_TIME_PATTERN } from "../src/internal/dateTime.js";
import { DEFAULT_EVENT_ATTRIBUTE_NAMES } from "../src/jsonapi/eventAttributeNames.js";
import { eventDocumentSchemasFor } from "../src/jsonapi/eventDocumentSchema.js";
import { webhookPayloadSchema } from "../src/webhooks/webhookPayloadSchema.js";
import {
  checksOf,
  type Def,
  defOf,
  discriminatorValuesOf,
  isContainer,
  objectShapeOf,
  type Schema,
  sharedMembersOf,
  sortedImports,
  unsupported,
} from "./schemaShapes.js";

export { checksOf, type Def, defOf, type Schema, unsupported } from "./schemaShapes.js";

export const lit = (value: unknown): string => JSON.stringify(value);
/** `object.key` where the key is an identifier, `object["key"]` otherwise. */
export const access = (object: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${object}.${key}` : `${object}[${lit(key)}]`;

class Generator {
  private readonly functions: string[] = [];
  private readonly names = new Map<Schema, string>();
  private readonly bodies = new Map<string, string>();
  private counter = 0;
  readonly usedRuntime = new Set<string>(["type Run"]);
  usesDateTime = false;
  usesIdempotencyKey = false;

  /** The name of the function that validates `schema` (a container) and returns its copy. */
  function(schema: Schema): string {
    const known = this.names.get(schema);
    if (known !== undefined) return known;
    const def = defOf(schema);
    let body: string;
    if (def.type === "object") body = this.objectBody(schema);
    else if (def.type === "array") body = this.arrayBody(schema);
    else if (def.type === "union" && typeof def.discriminator === "string")
      body = this.discriminatedBody(schema);
    else return unsupported(`a ${def.type} as a function`);
    // Schemas made by the same factory (every empty object, say) share one function.
    let name = this.bodies.get(body);
    if (name === undefined) {
      name = `f${this.counter++}`;
      this.bodies.set(body, name);
      this.functions.push(`function ${name}(x: unknown, r: Run): unknown {\n${body}\n}`);
    }
    this.names.set(schema, name);
    return name;
  }

  private readonly constants = new Map<string, string>();

  /** A module-level constant holding `value` (a JS expression), shared by every use of the same one. */
  private constant(value: string, type = "readonly string[]"): string {
    const declaration = `${type} = ${value}`;
    let name = this.constants.get(declaration);
    if (name === undefined) {
      name = `K${this.constants.size}`;
      this.constants.set(declaration, name);
    }
    return name;
  }

  /**
   * A member of the commonest kinds (a string, a boolean, an enumeration, optional or nullable) as
   * one runtime call that reads, checks and returns it; `undefined` for any other.
   */
  private leaf(member: Schema, key: string): string | undefined {
    let schema = member;
    let optional = false;
    let nullable = false;
    if (defOf(schema).type === "optional") {
      optional = true;
      schema = defOf(schema).innerType as Schema;
    }
    if (defOf(schema).type === "nullable") {
      nullable = true;
      schema = defOf(schema).innerType as Schema;
    }
    const def = defOf(schema);
    if (checksOf(schema).length > 0 || def.format !== undefined) return undefined;
    const k = lit(key);
    switch (def.type) {
      case "string":
        if (!optional) return nullable ? undefined : `${this.use("str")}(r, x, ${k})`;
        return `${this.use("optStr")}(r, x, ${k}${nullable ? ", true" : ""})`;
      case "boolean":
        if (nullable) return undefined;
        return `${this.use("bool")}(r, x, ${k}${optional ? ", true" : ""})`;
      default:
        return undefined;
    }
  }

  private use(name: string): string {
    this.usedRuntime.add(name);
    return name;
  }

  /**
   * Statements that validate the value in `v` (whose location is `key`, a JS expression for a member
   * name or index, or `undefined` for the value itself) and leave its copy in the variable `out`
   * (already holding `v`).
   */
  value(schema: Schema, v: string, key: string, out: string): string {
    const def = defOf(schema);
    if (isContainer(schema)) {
      const fn = this.function(schema);
      if (key === "undefined") return `${out} = ${fn}(${v}, r);`;
      return `r.path.push(${key});\n${out} = ${fn}(${v}, r);\nr.path.pop();`;
    }
    switch (def.type) {
      case "optional":
        return `if (${v} !== undefined) {\n${this.value(def.innerType as Schema, v, key, out)}\n}`;
      case "nullable":
        return `if (${v} !== null) {\n${this.value(def.innerType as Schema, v, key, out)}\n}`;
      case "string":
        return this.string(schema, v, key);
      case "number":
        this.noChecks(schema);
        return `if (typeof ${v} !== "number" || !Number.isFinite(${v})) ${this.use("typeIssue")}(r, ${key}, ${v}, "number");`;
      case "boolean":
        this.noChecks(schema);
        return `if (typeof ${v} !== "boolean") ${this.use("typeIssue")}(r, ${key}, ${v}, "boolean");`;
      case "enum":
      case "literal": {
        this.noChecks(schema);
        const values =
          def.type === "enum"
            ? Object.values(def.entries as Record<string, string>)
            : (def.values as (string | number | boolean | null)[]);
        // Compared inline (faster than a lookup); the list is for the message only.
        const list = this.constant(`[${values.map(lit).join(", ")}]`, "readonly Literal[]");
        const test = values.map((item) => `${v} !== ${lit(item)}`).join(" && ");
        return `if (${test}) ${this.use("valueIssue")}(r, ${key}, ${v}, ${list});`;
      }
      case "custom":
        return this.json(schema, v, key, out);
      case "union":
        return this.union(schema, v, key, out);
      default:
        return unsupported(def.type);
    }
  }

  private noChecks(schema: Schema): void {
    if (checksOf(schema).length > 0) unsupported(`checks on a ${defOf(schema).type}`);
  }

  private string(schema: Schema, v: string, key: string): string {
    const def = defOf(schema);
    // Each check as its condition and issue, and whether its issue stops the checks after it (as
    // Zod's custom checks' issues do; a minimum length's does not).
    const checks: { readonly code: string; readonly aborts: boolean }[] = [];
    if (def.format !== undefined) {
      if (def.format !== "date-time" || String(def.pattern) !== String(DATE_TIME_PATTERN))
        unsupported(`string format ${String(def.format)}`);
      this.usesDateTime = true;
      checks.push({
        code: `if (!DATE_TIME.test(${v})) ${this.use("dateTimeIssue")}(r, ${key}, ${v});`,
        aborts: false,
      });
    } else {
      for (const check of checksOf(schema)) checks.push(this.stringCheck(check, v, key));
    }
    // Built from the last check back: a check after one whose issue aborts runs only without it.
    let checked = "";
    for (let i = checks.length - 1; i >= 0; i--) {
      const { code, aborts } = checks[i]!;
      if (checked === "") checked = code;
      else if (!aborts) checked = `${code}\n${checked}`;
      else if (i === checks.length - 2) checked = `${code}\nelse ${checked}`;
      else checked = `${code}\nelse {\n${checked}\n}`;
    }
    if (checks.length > 1) checked = `{\n${checked}\n}`;
    const typeIssue = `${this.use("typeIssue")}(r, ${key}, ${v}, "string");`;
    // A minimum length runs even after the type check failed (Zod's length checks run on any value
    // with a length); the other checks only on a string.
    const minimum = checksOf(schema).find(
      (check) => (check._zod.def as unknown as Def).check === "min_length",
    );
    if (minimum !== undefined) {
      return `if (typeof ${v} !== "string") {\n${typeIssue}\n${this.use("minLengthOf")}(r, ${key}, ${v}, 1);\n} else ${checked}`;
    }
    return checks.length === 0
      ? `if (typeof ${v} !== "string") ${typeIssue}`
      : `if (typeof ${v} !== "string") ${typeIssue}\nelse ${checked}`;
  }

  private stringCheck(
    check: z.core.$ZodCheck<never>,
    v: string,
    key: string,
  ): { readonly code: string; readonly aborts: boolean } {
    const def = check._zod.def as unknown as Def;
    if (def.check === "min_length") {
      if (def.minimum !== 1) unsupported(`a minimum length of ${String(def.minimum)}`);
      return { code: `if (${v}.length < 1) ${this.use("emptyIssue")}(r, ${key});`, aborts: false };
    }
    const hint = hintOf(check);
    if (hint?.rule === "max_code_points") {
      const max = hint.maximum;
      this.use("codePointLength");
      return {
        code: `if (${v}.length > ${max} && codePointLength(${v}) > ${max}) ${this.use("tooLongIssue")}(r, ${key}, ${v}, ${max});`,
        aborts: true,
      };
    }
    if (hint?.rule === "not_blank")
      return { code: `if (!/\\S/.test(${v})) ${this.use("blankIssue")}(r, ${key});`, aborts: true };
    if (hint?.rule === "idempotency_key") {
      this.usesIdempotencyKey = true;
      return {
        code: `if (!IDEMPOTENCY_KEY.test(${v})) ${this.use("idempotencyKeyIssue")}(r, ${key}, ${v});`,
        aborts: true,
      };
    }
    return unsupported(`string check ${String(def.check)}`);
  }

  private json(schema: Schema, v: string, key: string, out: string): string {
    const def = defOf(schema);
    if (typeof def.requireObject !== "boolean") unsupported("a custom schema other than a JSON value");
    let copy = `${out} = ${this.use("jsonCopy")}(r, ${v}, ${key}, true);`;
    const hints = checksOf(schema).map((check) => hintOf(check));
    if (hints.length > 1) unsupported("more than one check on a JSON value");
    const hint = hints[0];
    if (hint !== undefined) {
      if (hint.rule !== "jsonapi_member" || !def.requireObject)
        unsupported(`a check ${String(hint?.rule)} on a JSON value`);
      // What JSON:API requires of the member, checked on its copy once it is known to be JSON.
      copy = `{\nconst b = r.aborts;\n${out} = ${this.use("jsonCopy")}(r, ${v}, ${key}, true, true);\nif (r.aborts === b && r.stopped === undefined) ${this.external("jsonApiIssues")}(r, ${key}, ${lit(hint.kind)}, ${out} as Record<string, unknown>);\n}`;
    }
    if (!def.requireObject) return copy;
    return `if (!${this.use("isPlainObject")}(${v})) ${this.use("typeIssue")}(r, ${key}, ${v}, "object");\nelse ${copy}`;
  }

  /** Functions of the JSON:API rules, written by hand beside the generated module that calls them. */
  private readonly externals = new Map<string, string>();
  readonly usedExternals = new Set<string>();

  /** Declares `name`, a function of `module`, as the validator of `schema` (a container). */
  provide(schema: Schema, name: string, module: string): void {
    this.names.set(schema, name);
    this.externals.set(name, module);
    this.usedExternals.add(name);
  }

  /** Declares `name`, a function of `module` the generated code may call. */
  declare(name: string, module: string): void {
    this.externals.set(name, module);
  }

  private external(name: string): string {
    if (!this.externals.has(name)) unsupported(`a call of ${name}, which no module provides`);
    this.usedExternals.add(name);
    return name;
  }

  /** A union whose alternatives are told apart by their type alone (`string | number | string[]`). */
  private union(schema: Schema, v: string, key: string, out: string): string {
    const options = defOf(schema).options as Schema[];
    const branches: string[] = [];
    const expected: string[] = [];
    for (const option of options) {
      const type = defOf(option).type;
      const test =
        type === "string"
          ? `typeof ${v} === "string"`
          : type === "number"
            ? `typeof ${v} === "number" && Number.isFinite(${v})`
            : type === "boolean"
              ? `typeof ${v} === "boolean"`
              : type === "array"
                ? `Array.isArray(${v})`
                : unsupported(`a ${type} in a union`);
      // Only an array may have checks of its own here: its entries' issues are reported as Zod
      // reports them (the one alternative that got past its type check).
      if (type !== "array") this.noChecks(option);
      else if (checksOf(option).length > 0 || (defOf(option) as { length?: number }).length !== undefined)
        unsupported("a checked array in a union");
      expected.push(type);
      branches.push(`if (${test}) {\n${type === "array" ? this.value(option, v, key, out) : ""}\n}`);
    }
    const list = this.constant(lit([...new Set(expected)]), "readonly Expected[]");
    return `${branches.join(" else ")} else ${this.use("variantIssue")}(r, ${key}, ${v}, ${list});`;
  }

  /** Statements that validate members `from` to `to` of a shape, and the variable holding each copy. */
  private members(shape: Record<string, Schema>, keys: readonly string[], from: number, to: number) {
    const lines: string[] = [];
    const outputs: string[] = [];
    for (let i = from; i < to; i++) {
      const key = keys[i]!;
      const member = shape[key]!;
      if (key === "__proto__") unsupported("a member named __proto__");
      const leaf = this.leaf(member, key);
      if (leaf !== undefined) {
        lines.push(`const v${i} = ${leaf};`);
        outputs.push(`v${i}`);
        continue;
      }
      const code = this.value(member, `v${i}`, lit(key), `o${i}`);
      const copied = code.includes(`o${i} = `);
      lines.push(`const v${i} = ${access("x", key)};`);
      if (copied) lines.push(`let o${i}: unknown = v${i};`);
      lines.push(code);
      outputs.push(copied ? `o${i}` : `v${i}`);
      const optional = defOf(member).type === "optional";
      if (!optional && this.acceptsUndefined(member))
        unsupported(`a required member ${key} that accepts undefined`);
    }
    return { lines, outputs };
  }

  /**
   * Statements that put members `from` to `to` on the copy `o` (made here when `create`, as a literal
   * up to the first optional member), in the schema's order; an optional member present as
   * `undefined` stays so, as in Zod's output.
   */
  private assign(
    shape: Record<string, Schema>,
    keys: readonly string[],
    from: number,
    outputs: readonly string[],
    create: boolean,
  ): string[] {
    const lines: string[] = [];
    let next = from;
    if (create) {
      const literal: string[] = [];
      while (next < from + outputs.length && defOf(shape[keys[next]!]!).type !== "optional") {
        const key = keys[next]!;
        literal.push(`${/^[A-Za-z_$][\w$]*$/.test(key) ? key : lit(key)}: ${outputs[next - from]}`);
        next++;
      }
      lines.push(`const o: Record<string, unknown> = { ${literal.join(", ")} };`);
    }
    for (; next < from + outputs.length; next++) {
      const key = keys[next]!;
      const prop = access("o", key);
      const output = outputs[next - from]!;
      if (defOf(shape[key]!).type === "optional") {
        // Written out, not a call to a helper: a store and an `in` of one member at each site,
        // where a shared helper's would see every object shape.
        // (The copy of an absent member is the member: `undefined`.)
        lines.push(`if (v${next} !== undefined || ${lit(key)} in x) ${prop} = ${output};`);
      } else {
        lines.push(`${prop} = ${output};`);
      }
    }
    return lines;
  }

  /** Members shared, first and in the same order, by every option of a union: validated by one function. */
  private readonly groups = new Map<Schema, { readonly size: number; readonly fn: string }>();
  /** Members shared, last and in the same order, by every option of a union: one function too. */
  private readonly tails = new Map<Schema, { readonly size: number; readonly fn: string }>();

  /** Finds the members the options of a union share, first and last, and makes their functions. */
  private share(options: readonly Schema[]): void {
    const shared = sharedMembersOf(options);
    if (shared === undefined) return;
    const { keys, shape, lead, trail } = shared;
    if (lead > 0) {
      const { lines, outputs } = this.members(shape, keys, 0, lead);
      const fn = `g${this.counter++}`;
      const body = [...lines, ...this.assign(shape, keys, 0, outputs, true), "return o;"].join("\n");
      this.functions.push(
        `function ${fn}(x: Record<string, unknown>, r: Run): Record<string, unknown> {\n${body}\n}`,
      );
      for (const option of options) this.groups.set(option, { size: lead, fn });
    }
    if (trail > 0) {
      const from = keys.length - trail;
      const { lines, outputs } = this.members(shape, keys, from, keys.length);
      const fn = `h${this.counter++}`;
      const body = [...lines, ...this.assign(shape, keys, from, outputs, false)].join("\n");
      this.functions.push(
        `function ${fn}(x: Record<string, unknown>, r: Run, o: Record<string, unknown>): void {\n${body}\n}`,
      );
      for (const option of options) this.tails.set(option, { size: trail, fn });
    }
  }

  private objectBody(schema: Schema): string {
    const { shape, keys, strict, hints } = objectShapeOf(schema);
    const group = this.groups.get(schema);
    const from = group?.size ?? 0;
    const lines: string[] = [`if (!${this.use("enter")}(r, x)) return undefined;`];
    if (hints.length > 0) lines.push("const a = r.aborts;");
    if (group !== undefined) lines.push(`const o = ${group.fn}(x, r);`);
    const tail = this.tails.get(schema);
    const to = keys.length - (tail?.size ?? 0);
    const { lines: validation, outputs } = this.members(shape, keys, from, to);
    lines.push(...validation);
    if (tail !== undefined) {
      // The shared last members are validated and copied after the others, in the schema's order.
      lines.push(...this.assign(shape, keys, from, outputs, group === undefined), `${tail.fn}(x, r, o);`);
    }
    // The members are compared inline: several times faster than a lookup in a list or a set.
    const undeclared = keys.length === 0 ? "true" : keys.map((key) => `k !== ${lit(key)}`).join(" && ");
    if (strict) {
      lines.push(
        "let u: string[] | undefined;",
        keys.length === 0
          ? "for (const k in x) {\nr.nodes--;\nif (u === undefined) u = [k];\nelse u.push(k);\n}"
          : `for (const k in x) {\nr.nodes--;\nif (${undeclared}) {\nif (u === undefined) u = [k];\nelse u.push(k);\n}\n}`,
        `if (u !== undefined) ${this.use("unknownMembers")}(r, x, u);`,
      );
    } else {
      lines.push(
        "let e: string[] | undefined;",
        `for (const k in x) {\nr.nodes--;\nif (${undeclared}) {\nif (k === "__proto__") ${this.use("skipProto")}(r, x);\nelse if (e === undefined) e = [k];\nelse e.push(k);\n}\n}`,
      );
    }
    // Once the run has an issue, its data is never returned: an object whose copy nothing reads
    // (no check of its own) is not copied, and the value stands in for its copy (an object too, for
    // a parent's checks that a member is present). The value is left as it is.
    if (tail === undefined && hints.length === 0) lines.push("if (r.count !== 0) return x;");
    if (tail === undefined) lines.push(...this.assign(shape, keys, from, outputs, group === undefined));
    // The extra members go on the copy as they are, unless the check that they are JSON copies
    // them, with nothing reading them before it (the other checks read declared members only).
    const extrasChecked = hints.findIndex((hint) => hint.rule === "extras_are_json");
    const fused =
      extrasChecked >= 0 && hints.slice(0, extrasChecked).every((hint) => hint.rule === "exactly_one_of");
    if (!strict && !fused)
      lines.push(`if (e !== undefined) for (const k of e) ${this.use("put")}(o, k, x[k]);`);
    for (const hint of hints) lines.push(this.objectCheck(hint, keys, fused));
    lines.push("return o;");
    return lines.join("\n");
  }

  private objectCheck(hint: CheckHint, keys: readonly string[], fused: boolean): string {
    if (hint.rule === "exactly_one_of") {
      for (const key of hint.keys)
        if (!keys.includes(key)) unsupported(`exactly one of an undeclared ${key}`);
      const count = hint.keys.map((key) => `(${access("o", key)} !== undefined ? 1 : 0)`).join(" + ");
      const list = this.constant(lit(hint.keys), "readonly string[]");
      return `if (r.aborts === a) {\nconst p = ${count};\nif (p !== 1) ${this.use("exactlyOneIssue")}(r, ${list}, p);\n}`;
    }
    if (hint.rule === "extras_are_json") {
      // Where an issue before stops the check, the extra members are left unread.
      if (fused)
        return `if (e !== undefined) {\nif (r.aborts === a) for (const k of e) ${this.use("put")}(o, k, ${this.use("jsonCopy")}(r, x[k], k, false));\nelse for (const k of e) {\nconst v = x[k];\n${this.use("put")}(o, k, v);\n${this.use("unreadValue")}(r, v, k);\n}\n}`;
      return `if (e !== undefined) {\nif (r.aborts === a) for (const k of e) ${this.use("put")}(o, k, ${this.use("jsonCopy")}(r, o[k], k, false));\nelse for (const k of e) ${this.use("unreadValue")}(r, o[k], k);\n}`;
    }
    if (hint.rule === "no_errors_beside_data") {
      // Read on the copy, as Zod's check reads its output.
      return `if (r.aborts === a && o.errors !== undefined) ${this.use("errorsWithDataIssue")}(r);`;
    }
    return unsupported(`an object check ${hint.rule}`);
  }

  private acceptsUndefined(schema: Schema): boolean {
    const type = defOf(schema).type;
    return type === "optional" || type === "unknown" || type === "any" || type === "undefined";
  }

  private arrayBody(schema: Schema): string {
    const def = defOf(schema);
    const element = def.element as Schema;
    const length = (def as { length?: number }).length;
    const minimumCheck = checksOf(schema).find(
      (check) => (check._zod.def as unknown as Def).check === "min_length",
    );
    const minimum =
      minimumCheck === undefined ? undefined : Number((minimumCheck._zod.def as unknown as Def).minimum);
    // A minimum length runs even when the value is not an array (on anything with a length).
    const lines: string[] = [
      `if (!${this.use("list")}(r, x${minimum === undefined ? "" : `, ${minimum}`})) return undefined;`,
      "const n = x.length;",
    ];
    if (checksOf(schema).some((check) => hintOf(check) !== undefined)) lines.push("const a = r.aborts;");
    if (length !== undefined) {
      lines.push(
        `if (n !== ${length}) ${this.use("countIssue")}(r, undefined, n < ${length} ? "too_few_items" : "too_many_items", "exactly", ${length}, n, true);`,
      );
    }
    lines.push("const o: unknown[] = new Array(n);", this.arrayLoop(element));
    for (const check of checksOf(schema)) {
      const checkDef = check._zod.def as unknown as Def;
      const hint = hintOf(check);
      if (checkDef.check === "min_length") {
        lines.push(
          `if (n < ${minimum}) ${this.use("countIssue")}(r, undefined, "too_few_items", "at least", ${minimum}, n, false);`,
        );
      } else if (hint?.rule === "boolean_options") {
        lines.push(
          `if (r.aborts === a) {\nconst f = o[0] as Record<string, unknown> | undefined;\nconst s = o[1] as Record<string, unknown> | undefined;\nif (f !== undefined && s !== undefined && f.value === s.value) ${this.use("booleanOptionsIssue")}(r, f.value);\n}`,
        );
      } else {
        unsupported(`array check ${String(checkDef.check)}`);
      }
    }
    lines.push("return o;");
    return lines.join("\n");
  }

  private arrayLoop(element: Schema): string {
    if (isContainer(element))
      return `for (let i = 0; i < n; i++) {\nr.path.push(i);\no[i] = ${this.function(element)}(x[i], r);\nr.path.pop();\n}`;
    const code = this.value(element, "v", "i", "c");
    if (!code.includes("c = "))
      return `for (let i = 0; i < n; i++) {\nconst v = x[i];\n${code}\no[i] = v;\n}`;
    return `for (let i = 0; i < n; i++) {\nconst v = x[i];\nlet c: unknown = v;\n${code}\no[i] = c;\n}`;
  }

  private discriminatedBody(schema: Schema): string {
    const def = defOf(schema);
    const discriminator = def.discriminator as string;
    const options = def.options as Schema[];
    const cases: string[] = [];
    const all: (string | number | boolean | null)[] = [];
    this.share(options);
    for (const option of options) {
      const values = discriminatorValuesOf(option, discriminator);
      all.push(...values);
      cases.push(
        `${values.map((item) => `case ${lit(item)}:`).join("\n")}\nreturn ${this.function(option)}(x, r);`,
      );
    }
    return [
      `if (!${this.use("isObject")}(x)) {\n${this.use("typeIssue")}(r, undefined, x, "object");\nreturn undefined;\n}`,
      `const t = ${access("x", discriminator)};`,
      `switch (t) {\n${cases.join("\n")}\n}`,
      `${this.use("unknownVariant")}(r, x, ${lit(discriminator)}, t, ${this.constant(`[${all.map(lit).join(", ")}]`, "readonly Literal[]")});`,
      "return undefined;",
    ].join("\n");
  }

  source(entries: readonly string[]): string {
    const runtime = [...this.usedRuntime].filter(
      (name) => name !== "codePointLength" && name !== "isPlainObject",
    );
    const imports = [
      `import { ${sortedImports(runtime).join(", ")} } from "../internal/compiledRuntime.js";`,
    ];
    if (this.usedRuntime.has("codePointLength"))
      imports.unshift(`import { codePointLength } from "../internal/codePointLength.js";`);
    if (this.usedRuntime.has("isPlainObject"))
      imports.push(`import { isPlainObject } from "../internal/isPlainObject.js";`);
    const modules = new Map<string, string[]>();
    for (const name of this.usedExternals) {
      const module = this.externals.get(name)!;
      modules.set(module, [...(modules.get(module) ?? []), name]);
    }
    for (const [module, names] of modules)
      imports.push(`import { ${names.sort().join(", ")} } from "${module}";`);
    const declarations = [...this.constants.keys()].join("\n");
    const issueTypes = ["Expected", "Literal"].filter((name) => declarations.includes(`readonly ${name}[]`));
    if (issueTypes.length > 0)
      imports.push(`import type { ${issueTypes.join(", ")} } from "../internal/issue.js";`);
    const constants = this.usesDateTime ? [`const DATE_TIME = ${String(DATE_TIME_PATTERN)};`] : [];
    if (this.usesIdempotencyKey)
      constants.push(`const IDEMPOTENCY_KEY = ${String(IDEMPOTENCY_KEY_PATTERN)};`);
    for (const [declaration, name] of this.constants) constants.push(`const ${name}: ${declaration};`);
    return [...imports, "", ...constants, "", ...this.functions, "", ...entries].join("\n");
  }
}

// The content schemas' modules (src/events/content/), each exporting one schema.
const contentDir = new URL("../src/events/content/", import.meta.url);
const contentModules: Record<string, unknown> = {};
for (const file of readdirSync(contentDir).filter((name) => name.endsWith(".ts"))) {
  Object.assign(contentModules, await import(new URL(file.replace(/\.ts$/, ".js"), contentDir).href));
}

/** The export name of each content schema, found by identity among the schema modules' exports. */
export function schemaNames(): Map<EventType, string> {
  const byIdentity = new Map<unknown, string>();
  for (const [name, value] of Object.entries(contentModules)) byIdentity.set(value, name);
  const names = new Map<EventType, string>();
  for (const type of eventTypes) {
    const name = byIdentity.get(eventContentSchemas[type]);
    if (name === undefined) throw new Error(`validator generator: no export for the schema of ${type}`);
    names.set(type, name);
  }
  return names;
}

export const capitalized = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

/** The generated module, before formatting. */
export function generateValidators(): string {
  const generator = new Generator();
  const names = schemaNames();
  const entries: string[] = [];
  const table: string[] = [];
  for (const type of eventTypes) {
    const schema = eventContentSchemas[type] as Schema;
    const name = names.get(type)!;
    const checker = `check${capitalized(name)}`;
    const def = defOf(schema);
    let body: string;
    if (def.type === "custom") {
      body = `function ${checker}(x: unknown, r: Run): unknown {\nlet o: unknown = x;\n${generator.value(schema, "x", "undefined", "o")}\nreturn o;\n}`;
    } else {
      body = `const ${checker}: (x: unknown, r: Run) => unknown = ${generator.function(schema)};`;
    }
    entries.push(
      `/** Validates the content of a \`${type}\` event (\`${name}\`), its issues in the run; returns its copy. */\nexport ${body}`,
    );
    table.push(`${lit(type)}: ${checker},`);
  }
  entries.push(
    `/** Validates a webhook payload (\`webhookPayloadSchema\`), its issues in the run; returns its copy. */\nexport const checkWebhookPayload: (x: unknown, r: Run) => unknown = ${generator.function(webhookPayloadSchema as Schema)};`,
  );
  entries.push(
    `/** The validator of each type's content. */\nexport const contentCheckers: Readonly<Record<EventType, (x: unknown, r: Run) => unknown>> = {\n${table.join("\n")}\n};`,
  );
  const header = [
    "// Generated by `npm run build:validators` (scripts/validatorGenerator.ts) from the Zod content",
    "// schemas: do not edit. A test regenerates it and fails when this file is stale.",
    'import type { EventType } from "./eventTypes.js";',
  ].join("\n");
  return `${header}\n${generator.source(entries)}\n`;
}

/**
 * The module of the JSON:API document validators (request and response documents, with the default
 * attribute names), before formatting. The attributes, whose names a caller may choose, are
 * validated by a function written by hand (src/jsonapi/checkAttributes.ts) on the generated content
 * validators.
 */
export function generateDocuments(): string {
  const generator = new Generator();
  const document = eventDocumentSchemasFor(DEFAULT_EVENT_ATTRIBUTE_NAMES).document as Schema;
  const resource = eventDocumentSchemasFor(DEFAULT_EVENT_ATTRIBUTE_NAMES).resource as Schema;
  const data = (defOf(document).shape as Record<string, Schema>).data!;
  generator.provide(
    (defOf(data).shape as Record<string, Schema>).attributes!,
    "checkAttributes",
    "./checkAttributes.js",
  );
  generator.declare("jsonApiIssues", "./checkAttributes.js");
  const entries = [
    `/** Validates a request document (\`eventDocumentSchema\`), its issues in the run; returns its copy. */\nexport const checkEventDocument: (x: unknown, r: Run) => unknown = ${generator.function(document)};`,
    `/** Validates a response document (\`eventResourceDocumentSchema\`), its issues in the run; returns its copy. */\nexport const checkEventResource: (x: unknown, r: Run) => unknown = ${generator.function(resource)};`,
  ];
  const header = [
    "// Generated by `npm run build:validators` (scripts/validatorGenerator.ts) from the Zod document",
    "// schemas: do not edit. A test regenerates it and fails when this file is stale.",
  ].join("\n");
  return `${header}\n${generator.source(entries)}\n`;
}

/** The smallest valid value of `schema`, for the examples: required members only, first options. */
export function sampleOf(schema: Schema): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string": {
      if (def.format === "date-time") return "2026-11-22T18:00:00Z";
      const short = checksOf(schema).some((check) => {
        const hint = hintOf(check);
        return hint?.rule === "max_code_points" && hint.maximum < 7;
      });
      return short ? "en" : "example";
    }
    case "number":
      return 1;
    case "boolean":
      return true;
    case "enum":
      return Object.values(def.entries as Record<string, string>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "nullable":
    case "optional":
      return sampleOf(def.innerType as Schema);
    case "custom":
      return {};
    case "array": {
      const length = (def as { length?: number }).length ?? 1;
      return Array.from({ length }, () => sampleOf(def.element as Schema));
    }
    case "union":
      return sampleOf((def.options as Schema[])[0]!);
    case "object": {
      const shape = def.shape as Record<string, Schema>;
      const sample: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(shape)) {
        if (defOf(member).type !== "optional") sample[key] = sampleOf(member);
      }
      for (const check of checksOf(schema)) {
        const hint = hintOf(check);
        if (hint?.rule === "exactly_one_of") sample[hint.keys[0]!] = sampleOf(shape[hint.keys[0]!]!);
      }
      return sample;
    }
    default:
      return unsupported(`a sample of ${def.type}`);
  }
}

/** The smallest valid value of `schema` as a literal for an example: `{ body: "example" }`. */
export function sampleLiteral(schema: Schema): string {
  return JSON.stringify(sampleOf(schema))
    .replace(/"([A-Za-z_$][\w$]*)":/g, "$1: ")
    .replace(/^\{(.+)\}$/, "{ $1 }")
    .replace(/,(?=[A-Za-z_$"[{])/g, ", ");
}

/** The module of public per-type parsers, before formatting. */
export function generateContentParsers(): string {
  const names = schemaNames();
  const checkers: string[] = [];
  const functions: string[] = [];
  for (const type of eventTypes) {
    const name = names.get(type)!;
    const checker = `check${capitalized(name)}`;
    const parser = `safeParse${capitalized(name)}`;
    checkers.push(checker);
    const sample = sampleLiteral(eventContentSchemas[type] as Schema);
    functions.push(`/**
 * Validates the content of a \`${type}\` event and never throws: {@link safeParseEventContent} for this
 * one type, with the same result (verdict, copy of the content, error code, issues and messages),
 * as code generated from \`${name}\` that a bundler keeps without the other types or Zod.
 *
 * Exported from \`messaging-events/events\` and \`messaging-events\`.
 *
 * @example
 * \`\`\`ts
 * import { ${parser} } from "messaging-events/events";
 *
 * const result = ${parser}(${sample});
 * console.log(result.success); // true
 * \`\`\`
 */
export function ${parser}(content: unknown, options?: ValidationLimits): SafeParseResult<EventContent<${lit(type)}>> {
  return runContent(${checker}, ${lit(type)}, content, options);
}`);
  }
  const header = [
    "// Generated by `npm run build:validators` (scripts/validatorGenerator.ts) from the Zod content",
    "// schemas: do not edit. A test regenerates it and fails when this file is stale.",
    `import { ${checkers.join(", ")} } from "./compiledValidators.js";`,
    'import type { EventContent } from "./EventContent.js";',
    'import { runContent } from "./runCompiled.js";',
    'import type { SafeParseResult } from "./SafeParseResult.js";',
    "// For the links in the documentation.",
    'import type { safeParseEventContent } from "./safeParseEventContent.js";',
    'import type { ValidationLimits } from "./ValidationLimits.js";',
  ].join("\n");
  return `${header}\n\n${functions.join("\n\n")}\n`;
}
