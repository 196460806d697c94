import { EventValidationError } from "../events/EventValidationError.js";
import { isEventType } from "../events/isEventType.js";
import { runContentSchema, type SafeParseResult } from "../events/safeParseEventContent.js";
import { unknownEventTypeError } from "../events/unknownEventTypeError.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import {
  type EventDocument,
  type EventResourceDocument,
  eventDocumentSchema,
  eventResourceDocumentSchema,
} from "./eventDocumentSchema.js";

function parseDocument<T>(
  value: unknown,
  schema: typeof eventDocumentSchema | typeof eventResourceDocumentSchema,
): SafeParseResult<T> {
  if (!isPlainObject(value)) {
    const message = `the document must be a JSON:API object with data, not ${withArticle(describeValue(value))}`;
    return {
      success: false,
      error: new EventValidationError("ERR_INVALID_EVENT_DOCUMENT", undefined, [
        { code: "invalid_type", path: [], pointer: "", message },
      ]),
    };
  }
  let type: unknown;
  try {
    const attributes = (value.data as { attributes?: { type?: unknown } } | undefined)?.attributes;
    type = isPlainObject(attributes) ? attributes.type : undefined;
  } catch {
    type = undefined;
  }
  // The type picks the content schema; an unknown one has its own code (ruling 10).
  if (type !== undefined && !isEventType(type)) {
    return { success: false, error: unknownEventTypeError(type, ["data", "attributes"]) };
  }
  const result = runContentSchema<T>(
    schema,
    value,
    type as string | undefined,
    [],
    "ERR_INVALID_EVENT_DOCUMENT",
  );
  if (result.success) return result;
  const contentOnly = result.error.issues.every((issue) =>
    issue.pointer.startsWith("/data/attributes/content"),
  );
  return contentOnly
    ? {
        success: false,
        error: new EventValidationError(
          "ERR_INVALID_EVENT_CONTENT",
          result.error.eventType,
          result.error.issues,
        ),
      }
    : result;
}

/**
 * For servers: validates a create request document (spec 4.1) and never throws. The envelope is
 * checked (a resource object of type `events`, with the members JSON:API allows) and the content
 * by `data.attributes.type`. Failures have the code `ERR_INVALID_EVENT_DOCUMENT`, or
 * `ERR_UNKNOWN_EVENT_TYPE` / `ERR_INVALID_EVENT_CONTENT` when only the type or the content is
 * wrong; issue pointers start at the document root (`/data/attributes/content/body`).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventDocument, toJsonApiErrors } from "messaging-events/jsonapi";
 *
 * const result = safeParseEventDocument({ data: { type: "events", attributes: { type: "s.form", content: {} } } });
 * if (!result.success) console.log(JSON.stringify(toJsonApiErrors(result.error)));
 * ```
 */
export function safeParseEventDocument(value: unknown): SafeParseResult<EventDocument> {
  return parseDocument<EventDocument>(value, eventDocumentSchema);
}

/**
 * Validates a create request document and returns it typed, or throws an `EventValidationError`
 * (codes as for {@link safeParseEventDocument}).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @throws {EventValidationError} when the document, its type or its content is invalid.
 *
 * @example
 * ```ts
 * import { parseEventDocument } from "messaging-events/jsonapi";
 *
 * const document = parseEventDocument({ data: { type: "events", attributes: { type: "s.room.close", content: {} } } });
 * console.log(document.data.attributes.type); // "s.room.close"
 * ```
 */
export function parseEventDocument(value: unknown): EventDocument {
  const result = safeParseEventDocument(value);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * For clients: validates the response document of a create (the created event resource, spec 2.2)
 * and never throws: `data.id` of the spec's id type (ruling 12), type `events`, attributes with
 * their content checked by type, and `meta`. Whether `meta["idempotency-key"]` echoes the key sent
 * is checked by `echoesIdempotencyKey`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventResource } from "messaging-events/jsonapi";
 *
 * const result = safeParseEventResource({
 *   data: { id: "01JD8X", type: "events", attributes: { type: "s.room.close", content: {} } },
 * });
 * if (result.success) console.log(result.data.data.id); // "01JD8X"
 * ```
 */
export function safeParseEventResource(value: unknown): SafeParseResult<EventResourceDocument> {
  return parseDocument<EventResourceDocument>(value, eventResourceDocumentSchema);
}

/**
 * Validates the response document of a create and returns it typed, or throws an
 * `EventValidationError`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @throws {EventValidationError} when the response is not an event resource document.
 *
 * @example
 * ```ts
 * import { parseEventResource } from "messaging-events/jsonapi";
 *
 * const { data } = parseEventResource({
 *   data: { id: "01JD8X", type: "events", attributes: { type: "s.room.pin", content: { value: true } } },
 * });
 * console.log(data.id, data.attributes.type); // 01JD8X s.room.pin
 * ```
 */
export function parseEventResource(value: unknown): EventResourceDocument {
  const result = safeParseEventResource(value);
  if (!result.success) throw result.error;
  return result.data;
}
