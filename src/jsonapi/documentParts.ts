import { validationError } from "../events/EventValidationError.js";
import { isEventType } from "../events/isEventType.js";
import { unreadable } from "../events/runCompiled.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import { toJsonPointer } from "../events/toJsonPointer.js";
import { unknownEventTypeError } from "../events/unknownEventTypeError.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { AttributeNameError, type EventAttributeNames } from "./eventAttributeNames.js";

// What the compiled document parsers (parseEventDocument.ts) and the interpreted reference
// (interpretEventDocument.ts) decide alike, written once.

/**
 * @internal The event type of a document, read before it is validated, or the failure for a value
 * that is no object or names an unknown type (a failure of its own code).
 */
export function documentTypeOf(
  value: unknown,
  names: EventAttributeNames,
): { readonly type: string | undefined } | SafeParseResult<never> {
  if (!isPlainObject(value)) {
    const received = describeValue(value);
    const message = `the document must be a JSON:API object with data, not ${withArticle(received)}`;
    const issue = {
      code: "invalid_type",
      path: [],
      pointer: "",
      message,
      params: { expected: "object", received },
    } as const;
    return { success: false, error: validationError("ERR_INVALID_EVENT_DOCUMENT", undefined, [issue]) };
  }
  const data: unknown = value.data;
  const attributes: unknown = isPlainObject(data) ? data.attributes : undefined;
  const type: unknown = isPlainObject(attributes) ? attributes[names.eventType] : undefined;
  // The type picks the content's rules; an unknown one has its own code.
  if (type !== undefined && !isEventType(type)) {
    return { success: false, error: unknownEventTypeError(type, ["data", "attributes"], names.eventType) };
  }
  return { type };
}

/**
 * @internal A failed validation of a document as `ERR_INVALID_EVENT_CONTENT` when every issue lies
 * inside the content attribute, as it is otherwise.
 */
export function asDocumentResult<T>(
  result: SafeParseResult<T>,
  names: EventAttributeNames,
): SafeParseResult<T> {
  if (result.success) return result;
  const contentPointer = toJsonPointer(["data", "attributes", names.content]);
  const { issues } = result.error;
  for (const issue of issues) {
    if (issue.pointer !== contentPointer && !issue.pointer.startsWith(`${contentPointer}/`)) return result;
  }
  const { eventType, omittedIssues } = result.error;
  return {
    success: false,
    error: validationError("ERR_INVALID_EVENT_CONTENT", eventType, issues, omittedIssues),
  };
}

/** @internal Runs a parse and turns anything it throws (a hostile proxy, say) into a failure. */
export function guarded<T>(work: () => SafeParseResult<T>): SafeParseResult<T> {
  try {
    return work();
  } catch (cause) {
    if (cause instanceof AttributeNameError) {
      // Bad options are the caller's mistake, not the document's: a failure of its own code.
      const issue = {
        code: "invalid_value",
        path: [],
        pointer: "",
        message: cause.message,
        params: { rule: "field_name" },
      } as const;
      return { success: false, error: validationError("ERR_INVALID_OPTIONS", undefined, [issue]) };
    }
    return unreadable("ERR_INVALID_EVENT_DOCUMENT", cause);
  }
}
