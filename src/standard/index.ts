export type { ContentStandardSchema } from "./ContentStandardSchema.js";
export * from "./contentStandardSchemas.js";
export { eventSchema } from "./eventSchema.js";
export type {
  StandardJsonSchemaOptions,
  StandardResult,
  StandardSchema,
  StandardSchemaWithJsonSchema,
} from "./StandardSchema.js";
export { webhookPayloadSchema } from "./webhookPayloadSchema.js";
