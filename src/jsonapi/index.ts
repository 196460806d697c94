export {
  type CreateEventDocumentInput,
  createEventDocument,
  type EventCreateDocument,
} from "./createEventDocument.js";
export {
  type EventAttributesSchema,
  type EventDocument,
  type EventResource,
  type EventResourceDocument,
  eventDocumentSchema,
  eventResourceDocumentSchema,
} from "./eventDocumentSchema.js";
export { acceptsJsonApi, isJsonApiMediaType, JSON_API_MEDIA_TYPE } from "./mediaType.js";
export {
  parseEventDocument,
  parseEventResource,
  safeParseEventDocument,
  safeParseEventResource,
} from "./parseEventDocument.js";
export { type JsonApiError, toJsonApiErrors } from "./toJsonApiErrors.js";
