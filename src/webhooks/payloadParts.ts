import { validationError } from "../events/EventValidationError.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import { notAnObjectIssue } from "../internal/notAnObjectIssue.js";

/**
 * @internal The type a webhook payload names (a string, or `undefined`), read once before it is
 * validated, or the failure for a value that is no object: what the compiled parser and the
 * interpreted reference decide alike.
 */
export function payloadTypeOf(
  value: unknown,
): { readonly type: string | undefined } | SafeParseResult<never> {
  if (!isPlainObject(value)) {
    const issue = notAnObjectIssue(value, "the webhook payload");
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
