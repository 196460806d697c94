import { runCompiled } from "../events/runCompiled.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import type { ValidationLimits } from "../events/ValidationLimits.js";
import { withAttributeNames } from "./checkAttributes.js";
import { checkEventDocument, checkEventResource } from "./compiledDocuments.js";
import { asDocumentResult, documentTypeOf, guarded } from "./documentParts.js";
import {
  type DefaultEventAttributeNames,
  type EventAttributeNames,
  type JsonApiOptions,
  resolveAttributeNames,
} from "./eventAttributeNames.js";
import type { EventDocument, EventResourceDocument } from "./eventDocumentSchema.js";

/** Validates a document by its generated validator (compiledDocuments.ts), under the call's attribute names. */
function parseDocument<T>(
  value: unknown,
  check: typeof checkEventDocument,
  options: DocumentParseOptions | undefined,
): SafeParseResult<T> {
  const names = resolveAttributeNames(options);
  const found = documentTypeOf(value, names);
  if ("success" in found) return found;
  const result = withAttributeNames(names, () =>
    runCompiled<T>(check, value, found.type, [], 0, "ERR_INVALID_EVENT_DOCUMENT", options),
  );
  return asDocumentResult(result, names);
}

/**
 * The options of the document parsers: the attribute names (see {@link JsonApiOptions}) and the
 * validation limits (see `ValidationLimits`).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { DocumentParseOptions } from "messaging-events/jsonapi";
 *
 * const options: DocumentParseOptions = { attributeNames: { eventType: "kind", content: "payload" }, maxIssues: 20 };
 * ```
 */
export interface DocumentParseOptions<N extends EventAttributeNames = EventAttributeNames>
  extends JsonApiOptions<N>,
    ValidationLimits {}

/**
 * For servers: validates a create request document (the body of `POST {base_url}/events`) and never throws. The envelope is
 * checked (a resource object of type `events`, with the members JSON:API allows) and the content
 * by the type attribute (`data.attributes.eventType` by default). Failures have the code `ERR_INVALID_EVENT_DOCUMENT`, or
 * `ERR_UNKNOWN_EVENT_TYPE` / `ERR_INVALID_EVENT_CONTENT` when only the type or the content is
 * wrong; issue pointers start at the document root (`/data/attributes/content/body`).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventDocument, toJsonApiErrors } from "messaging-events/jsonapi";
 *
 * const result = safeParseEventDocument({ data: { type: "events", attributes: { eventType: "s.form", content: {} } } });
 * if (!result.success) console.log(JSON.stringify(toJsonApiErrors(result.error)));
 * ```
 */
export function safeParseEventDocument<N extends EventAttributeNames = DefaultEventAttributeNames>(
  value: unknown,
  options?: DocumentParseOptions<N>,
): SafeParseResult<EventDocument<N>> {
  return guarded(() => parseDocument<EventDocument<N>>(value, checkEventDocument, options));
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
 * const document = parseEventDocument({ data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } });
 * console.log(document.data.attributes.eventType); // "s.room.close"
 * ```
 */
export function parseEventDocument<N extends EventAttributeNames = DefaultEventAttributeNames>(
  value: unknown,
  options?: DocumentParseOptions<N>,
): EventDocument<N> {
  const result = safeParseEventDocument(value, options);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * For clients: validates the response document of a create (the created event resource)
 * and never throws: `data.id` of 1 to 26 characters, not blank ([event ids](https://github.com/messaging-events/messaging-events/blob/main/docs/readings.md#event-ids)), type `events`, attributes with
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
 *   data: { id: "01JD8X", type: "events", attributes: { eventType: "s.room.close", content: {} } },
 * });
 * if (result.success) console.log(result.data.data.id); // "01JD8X"
 * ```
 */
export function safeParseEventResource<N extends EventAttributeNames = DefaultEventAttributeNames>(
  value: unknown,
  options?: DocumentParseOptions<N>,
): SafeParseResult<EventResourceDocument<N>> {
  return guarded(() => parseDocument<EventResourceDocument<N>>(value, checkEventResource, options));
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
 *   data: { id: "01JD8X", type: "events", attributes: { eventType: "s.room.pin", content: { value: true } } },
 * });
 * console.log(data.id, data.attributes.eventType); // 01JD8X s.room.pin
 * ```
 */
export function parseEventResource<N extends EventAttributeNames = DefaultEventAttributeNames>(
  value: unknown,
  options?: DocumentParseOptions<N>,
): EventResourceDocument<N> {
  const result = safeParseEventResource(value, options);
  if (!result.success) throw result.error;
  return result.data;
}
