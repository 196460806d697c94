/** What every generated JSON Schema document shares: its dialect, how it is named, and its type. */

/** A JSON Schema document, as plain JSON. */
export type JsonSchemaDocument = Record<string, unknown>;

/** The dialect of every file: JSON Schema draft 2020-12. */
export const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The `$id` of a shipped file, from its name: `event-document.json` is `urn:messaging-events:json-schema:event-document`. */
export const schemaIdOf = (fileName: string): string =>
  `urn:messaging-events:json-schema:${fileName.replace(/\.json$/, "")}`;

/** A schema without the keywords of a whole document (`$schema`, `$id`), to sit under `$defs`. */
export function withoutDocumentKeywords(schema: JsonSchemaDocument): JsonSchemaDocument {
  const { $schema: _dialect, $id: _id, ...body } = schema;
  return body;
}
