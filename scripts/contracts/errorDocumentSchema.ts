/**
 * The error document the server kit answers (`toJsonApiErrors` for a 422, the handler's own errors
 * otherwise), as a Zod schema: the one document of `POST /events` that the library writes but never
 * parses, so its schema is written here, typed against what the library writes
 * (test/contracts/errorDocument.test-d.ts) and tested against every answer of the handler.
 *
 * Each error object has the four string members the library always writes (`status`, `code`,
 * `title`, `detail`) and may have the others JSON:API allows (`id`, `links`, `source` with
 * `pointer`, `parameter` or `header`, `meta`); `meta.omittedErrors` counts the errors left out of a
 * long list.
 */
import * as z from "zod/mini";

const jsonObject = z.record(z.string(), z.unknown());

const errorObject = z.strictObject({
  id: z.optional(z.string()),
  links: z.optional(jsonObject),
  status: z.string().check(z.regex(/^[45][0-9][0-9]/), z.length(3)),
  code: z.string(),
  title: z.string(),
  detail: z.string(),
  source: z.optional(
    z.strictObject({
      pointer: z.optional(z.string()),
      parameter: z.optional(z.string()),
      header: z.optional(z.string()),
    }),
  ),
  meta: z.optional(jsonObject),
});

/** The JSON:API error document of `POST /events`: one error object at least, and nothing beside `errors` but `meta`, `jsonapi` and `links`. */
export const errorDocumentSchema = /* @__PURE__ */ z.strictObject({
  errors: z.array(errorObject).check(z.minLength(1)),
  meta: z.optional(z.looseObject({ omittedErrors: z.optional(z.int().check(z.minimum(1))) })),
  jsonapi: z.optional(jsonObject),
  links: z.optional(jsonObject),
});
