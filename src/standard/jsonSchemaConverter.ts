import { quote } from "../internal/describe.js";
import type { StandardJsonSchemaOptions } from "./StandardSchema.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The `input` and `output` converters of Standard JSON Schema. */
export interface JsonSchemaConverter {
  readonly input: (options?: StandardJsonSchemaOptions) => Record<string, unknown>;
  readonly output: (options?: StandardJsonSchemaOptions) => Record<string, unknown>;
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
    let target: unknown;
    try {
      target = options?.target ?? "draft-2020-12";
    } catch {
      // Options that cannot be read name no target this package has.
    }
    if (target === "draft-2020-12") return JSON.parse(text);
    if (target === "draft-07") return toDraft07(JSON.parse(text));
    const named =
      typeof target === "string" ? `the target ${quote(target)}` : `a target of type ${typeof target}`;
    throw new TypeError(`no JSON Schema for ${named}: "draft-2020-12" or "draft-07"`);
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
