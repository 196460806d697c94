import * as z from "zod/mini";

/**
 * Records JSON Schema keywords for a rule that Zod cannot express by itself, as Zod's own
 * `z.meta()` does: in the global registry, which `z.toJSONSchema` merges into the schema it
 * generates. Anyone who composes these schemas and generates JSON Schema gets the same rules.
 */
export function addJsonSchemaKeywords(schema: z.core.$ZodType, keywords: Record<string, unknown>): void {
  const existing = z.globalRegistry.get(schema);
  z.globalRegistry.add(schema, { ...existing, ...keywords });
}
