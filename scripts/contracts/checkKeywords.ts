/**
 * The JSON Schema form of the library's own checks that do not write one into Zod's generator
 * themselves: the JSON:API rules of the document schemas. Each check says what it does in its hint
 * (src/internal/checkHint.ts, the same hint the validator generator emits code from); here each
 * hint becomes the keywords that mean the same, added by Zod's `override` as the generator walks
 * the schema. A hint this file does not know stops the build, so a new rule cannot pass silently.
 *
 * Every pattern written here means the same in every engine: with Python's `re.search`, a final `$`
 * also matches before a final line break, so `^[…]+$` would accept `"key\n"` there. "No character
 * outside the set" (`not` a pattern of the complement) has no `$`; the one `$` left (a name may not
 * end with `-` or `_`) sits beside that rule, which already refuses any line break.
 */
import type * as z from "zod/mini";
import { IDEMPOTENCY_KEY_PATTERN } from "../../src/idempotency/idempotencyKey.js";
import { type CheckHint, hintOf } from "../../src/internal/checkHint.js";
import type { JsonSchemaDocument } from "./jsonSchemaBasics.js";

/** The characters of an idempotency key, read from the library's own pattern `^[…]{1,255}$`. */
function idempotencyKeySchema(): JsonSchemaDocument {
  const match = /^\^\[([^\]]+)\]\{1,(\d+)\}\$$/.exec(IDEMPOTENCY_KEY_PATTERN.source);
  if (!match) throw new Error(`the idempotency key pattern changed shape: ${IDEMPOTENCY_KEY_PATTERN.source}`);
  return { minLength: 1, maxLength: Number(match[2]), not: { type: "string", pattern: `[^${match[1]}]` } };
}

/**
 * A field name JSON:API allows (`isJsonApiFieldName`): ASCII letters and digits, with `-` and `_`
 * inside but not first or last, at most 256 characters, and not `type`, `id`, `links` or
 * `relationships`.
 */
export const fieldNameSchema: JsonSchemaDocument = {
  type: "string",
  maxLength: 256,
  pattern: "^[A-Za-z0-9]",
  not: {
    anyOf: [
      { pattern: "[^-_A-Za-z0-9]" },
      { pattern: "[-_]$" },
      { enum: ["type", "id", "links", "relationships"] },
    ],
  },
};

const metaSchema: JsonSchemaDocument = { type: "object" };

/** A links object: each member a URL string, or a link object `{ href, meta? }`. */
const linksSchema: JsonSchemaDocument = {
  additionalProperties: {
    oneOf: [
      { type: "string" },
      {
        type: "object",
        properties: { href: { type: "string" }, meta: metaSchema },
        required: ["href"],
        additionalProperties: false,
      },
    ],
  },
};

const resourceIdentifier: JsonSchemaDocument = {
  type: "object",
  properties: { type: { type: "string" }, id: { type: "string" }, meta: metaSchema },
  required: ["type", "id"],
  additionalProperties: false,
};

/** The relationships object: field names JSON:API allows, each a relationship with data, links or meta. */
const relationshipsSchema: JsonSchemaDocument = {
  propertyNames: fieldNameSchema,
  additionalProperties: {
    type: "object",
    properties: {
      data: {
        oneOf: [{ type: "null" }, resourceIdentifier, { type: "array", items: resourceIdentifier }],
      },
      links: { type: "object", ...linksSchema },
      meta: metaSchema,
    },
    additionalProperties: false,
    minProperties: 1,
  },
};

/** The `jsonapi` object: `{ version?, meta? }`. */
const jsonApiObjectSchema: JsonSchemaDocument = {
  properties: { version: { type: "string" }, meta: metaSchema },
  additionalProperties: false,
};

/** The keywords a hint adds to the schema its check sits on; `{}` for a hint whose rule is already written. */
function keywordsOf(hint: CheckHint): JsonSchemaDocument {
  switch (hint.rule) {
    case "jsonapi_member":
      return hint.kind === "links"
        ? linksSchema
        : hint.kind === "relationships"
          ? relationshipsSchema
          : jsonApiObjectSchema;
    case "field_names":
      // The further attributes: the library leaves an own `__proto__` member out of the copy it
      // returns, unread, as it does in every object that allows more members, so it never reaches
      // this rule; the schema lets that one name through too, to mean the same.
      return { propertyNames: { anyOf: [{ const: "__proto__" }, fieldNameSchema] } };
    case "idempotency_key":
      return idempotencyKeySchema();
    // Already in the generated schema: `maxLength` and `pattern` recorded by the checks themselves,
    // the media rule's `oneOf` and the boolean options in Zod's metadata.
    case "max_code_points":
    case "not_blank":
    case "exactly_one_of":
    case "boolean_options":
    // True of every JSON document: a validator of JSON Schema only ever sees JSON values.
    case "extras_are_json":
    // `errors` is no member the document declares, and the document allows no other.
    case "no_errors_beside_data":
      return {};
    default:
      throw new Error(`no JSON Schema for the check ${JSON.stringify(hint satisfies never)}`);
  }
}

/** Zod's `override` for `z.toJSONSchema`: adds the keywords of every hinted check of a schema. */
export function addCheckKeywords(context: {
  zodSchema: z.core.$ZodTypes;
  jsonSchema: Record<string, unknown>;
}): void {
  const checks = (context.zodSchema._zod.def as { checks?: z.core.$ZodCheck<never>[] }).checks ?? [];
  for (const check of checks) {
    const hint = hintOf(check);
    if (hint !== undefined) Object.assign(context.jsonSchema, keywordsOf(hint));
  }
}
