import { runContentSchema } from "../events/runContentSchema.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import { asDocumentResult, documentTypeOf, guarded } from "./documentParts.js";
import { resolveAttributeNames } from "./eventAttributeNames.js";
import { type EventDocumentSchemas, eventDocumentSchemasFor } from "./eventDocumentSchema.js";
import type { DocumentParseOptions } from "./parseEventDocument.js";

// The interpreted validation of documents: the Zod schemas run as they are, their issues turned
// into the library's. The compiled parsers must answer exactly as this does; tests compare them.

/**
 * @internal `safeParseEventDocument` (`which` "document") or `safeParseEventResource` ("resource")
 * as Zod interprets the schemas.
 */
export function interpretEventDocument(
  value: unknown,
  which: keyof EventDocumentSchemas,
  options?: DocumentParseOptions,
): SafeParseResult<unknown> {
  return guarded(() => {
    const names = resolveAttributeNames(options);
    const found = documentTypeOf(value, names);
    if ("success" in found) return found;
    const result = runContentSchema(
      eventDocumentSchemasFor(names)[which],
      value,
      found.type,
      [],
      "ERR_INVALID_EVENT_DOCUMENT",
      options,
    );
    return asDocumentResult(result, names);
  });
}
