import { describeValue, quote, safeText, withArticle } from "../internal/describe.js";
import { editDistance } from "../internal/editDistance.js";
import { type IssueParams, makeIssue } from "../internal/issue.js";
import { EventValidationError } from "./EventValidationError.js";
import { eventTypes } from "./eventTypes.js";

/**
 * The error for a type that is not one of the 32 event types, with a suggestion when the
 * type looks like a typo of a known one.
 */
export function unknownEventTypeError(
  type: unknown,
  path: readonly (string | number)[],
  member = "type",
): EventValidationError {
  let message: string;
  let params: IssueParams["unknown_event_type"];
  if (typeof type !== "string") {
    const received = describeValue(type);
    params = { received };
    message =
      type === undefined
        ? `${member} is required: expected an event type such as "s.message.text"`
        : `${member} must be an event type such as "s.message.text", not ${withArticle(received)}`;
  } else {
    // The known type nearest to a misspelt one, if it is close enough to be a likely typo. No type
    // is longer than 40 characters: a long string is no typo of one.
    let suggestion: string | undefined;
    let bestDistance = Math.max(2, Math.floor(type.length / 4)) + 1;
    if (type.length <= 64)
      for (const known of eventTypes) {
        const distance = editDistance(type, known, bestDistance);
        if (distance < bestDistance) {
          suggestion = known;
          bestDistance = distance;
        }
      }
    message = `${member} ${quote(type)} is not a known event type${suggestion ? ` (did you mean "${suggestion}"?)` : ""}`;
    params =
      suggestion === undefined
        ? { received: "string", type: safeText(type) }
        : { received: "string", type: safeText(type), suggestion };
  }
  // Located as every issue is: a pointer of bounded length, with no unsafe key in it.
  return new EventValidationError("ERR_UNKNOWN_EVENT_TYPE", typeof type === "string" ? type : undefined, [
    makeIssue("unknown_event_type", [...path, member], message, params),
  ]);
}
