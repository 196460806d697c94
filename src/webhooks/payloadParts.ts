import { validationError } from "../events/EventValidationError.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import { describeValue, withArticle } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";

/**
 * @internal The type a webhook payload names (a string, or `undefined`), read once before it is
 * validated, or the failure for a value that is no object: what the compiled parser and the
 * interpreted reference decide alike.
 */
export function payloadTypeOf(
  value: unknown,
): { readonly type: string | undefined } | SafeParseResult<never> {
  if (!isPlainObject(value)) {
    const received = describeValue(value);
    const message = `the webhook payload must be an object, not ${withArticle(received)}`;
    const issue = {
      code: "invalid_type",
      path: [],
      pointer: "",
      message,
      params: { expected: "object", received },
    } as const;
    return { success: false, error: validationError("ERR_INVALID_WEBHOOK_PAYLOAD", undefined, [issue]) };
  }
  let type: unknown;
  try {
    type = value.type;
  } catch {
    type = undefined;
  }
  return { type: typeof type === "string" ? type : undefined };
}
