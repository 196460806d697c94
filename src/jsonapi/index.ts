export {
  type CreateEventDocumentInput,
  createEventDocument,
  type EventCreateDocument,
} from "./createEventDocument.js";
export {
  AttributeNameError,
  DEFAULT_EVENT_ATTRIBUTE_NAMES,
  type DefaultEventAttributeNames,
  type EventAttributeNames,
  isJsonApiFieldName,
  type JsonApiOptions,
} from "./eventAttributeNames.js";
export {
  type EventAttributes,
  type EventAttributesSchema,
  type EventDocument,
  type EventResource,
  type EventResourceDocument,
  eventDocumentSchema,
  eventResourceDocumentSchema,
} from "./eventDocumentSchema.js";
export { acceptsJsonApi, isJsonApiMediaType, JSON_API_MEDIA_TYPE } from "./mediaType.js";
export {
  type DocumentParseOptions,
  parseEventDocument,
  parseEventResource,
  safeParseEventDocument,
  safeParseEventResource,
} from "./parseEventDocument.js";
export { type JsonApiError, toJsonApiErrors } from "./toJsonApiErrors.js";
