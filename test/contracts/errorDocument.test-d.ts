/**
 * The error document schema (scripts/contracts/errorDocumentSchema.ts) is written by hand, since
 * the library writes that document but never parses it: its type must take every document the
 * library writes, `toJsonApiErrors`'s result and the server kit's error objects.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type { errorDocumentSchema } from "../../scripts/contracts/errorDocumentSchema.js";
import type { JsonApiError, toJsonApiErrors } from "../../src/jsonapi/index.js";

type ErrorDocument = z.input<typeof errorDocumentSchema>;

describe("the error document schema", () => {
  it("takes what toJsonApiErrors writes", () => {
    expectTypeOf<ReturnType<typeof toJsonApiErrors>>().toExtend<ErrorDocument>();
  });

  it("takes every JSON:API error object the library writes, and requires its four strings", () => {
    expectTypeOf<{ errors: JsonApiError[] }>().toExtend<ErrorDocument>();
    expectTypeOf<ErrorDocument["errors"][number]>().toHaveProperty("status").toEqualTypeOf<string>();
    expectTypeOf<ErrorDocument["errors"][number]>().toHaveProperty("code").toEqualTypeOf<string>();
    expectTypeOf<{ errors: { status: string; code: string }[] }>().not.toExtend<ErrorDocument>();
  });
});
