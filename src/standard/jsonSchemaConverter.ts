import { quote } from "../internal/describe.js";
import type { StandardJsonSchemaOptions } from "./StandardSchema.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The `input` and `output` converters of Standard JSON Schema. */
export interface JsonSchemaConverter {
  readonly input: (options?: StandardJsonSchemaOptions) => Record<string, unknown>;
  readonly output: (options?: StandardJsonSchemaOptions) => Record<string, unknown>;
}

/**
 * The target the options name, `"draft-2020-12"` when they name none, `undefined` when they cannot
 * be read. A `target` inherited from `Object.prototype` (prototype pollution) names none: only the
 * options and the prototypes they have of their own (a class's getter) may choose the dialect.
 */
function targetOf(options: StandardJsonSchemaOptions | undefined): unknown {
  try {
    const target: unknown = options?.target;
    if (target === undefined || target === null || !ownsTarget(options as object)) return "draft-2020-12";
    return target;
  } catch {
    // Options that cannot be read name no target this package has.
    return undefined;
  }
}

/** Whether `target` is a member of `options` or of a prototype before `Object.prototype`. */
function ownsTarget(options: object): boolean {
  let holder: object | null = options;
  // A proxy may answer a prototype chain without end: a few levels are enough for any class.
  for (let level = 0; level < 32 && holder !== null && holder !== Object.prototype; level++) {
    if (Object.hasOwn(holder, "target")) return true;
    holder = Object.getPrototypeOf(holder);
  }
  return false;
}

/** A target that may be quoted: a dialect's name or URI, with no user name, password or query. */
const QUOTABLE_TARGET = /^[\w.:/#-]{1,64}$/;

/** The words for a target this package has no document for; never an echo of a credential or a query. */
function describeTarget(target: unknown): string {
  if (typeof target !== "string") return `a target of type ${typeof target}`;
  return QUOTABLE_TARGET.test(target)
    ? `the target ${quote(target)}`
    : `a target of ${target.length} characters that names no dialect`;
}

/**
 * @internal The converters of a shipped document kept as its JSON text: each call parses a fresh
 * copy (the caller may change it), as shipped (draft 2020-12) or passed to `toDraft07`.
 */
// @__NO_SIDE_EFFECTS__
function converter(
  text: string,
  toDraft07: (document: Record<string, unknown>) => Record<string, unknown>,
): JsonSchemaConverter {
  const convert = (options?: StandardJsonSchemaOptions): Record<string, unknown> => {
    const target = targetOf(options);
    if (target === "draft-2020-12") return JSON.parse(text);
    if (target === "draft-07") return toDraft07(JSON.parse(text));
    throw new TypeError(`no JSON Schema for ${describeTarget(target)}: "draft-2020-12" or "draft-07"`);
  };
  return Object.freeze({ input: convert, output: convert });
}

/**
 * @internal The converters of a content schema. In draft-07 only the dialect changes: the documents
 * use no keyword draft-07 lacks, and no `$defs` (a test holds them to that).
 */
// @__NO_SIDE_EFFECTS__
export function contentJsonSchemaConverter(text: string): JsonSchemaConverter {
  return converter(text, (document) => ({ ...document, $schema: DRAFT_07 }));
}

/**
 * @internal The converters of a document that bundles others under `$defs` (`event.json`,
 * `webhook-payload.json`): in draft-07 they become `definitions`, and the references follow.
 */
// @__NO_SIDE_EFFECTS__
export function bundleJsonSchemaConverter(text: string): JsonSchemaConverter {
  return converter(text, (document) => {
    const { $defs, ...rest } = document;
    return renameRefs({ ...rest, $schema: DRAFT_07, definitions: $defs }) as Record<string, unknown>;
  });
}

/** `value` with every `$ref` into `#/$defs/` pointing into `#/definitions/` instead (in place). */
function renameRefs(value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const member = object[key];
      if (key === "$ref" && typeof member === "string" && member.startsWith("#/$defs/"))
        object[key] = `#/definitions/${member.slice(8)}`;
      else renameRefs(member);
    }
  }
  return value;
}
