import { describe, expect, it } from "vitest";
import {
  EventValidationError,
  type EventValidationErrorCode,
  type EventValidationIssue,
  isEventValidationError,
  validationError,
} from "./EventValidationError.js";

const issue: EventValidationIssue = {
  code: "invalid_type",
  path: ["content", "body"],
  pointer: "/content/body",
  message: "content.body must be a string, not a number",
  params: { expected: "string", received: "number" },
};

describe("EventValidationError", () => {
  it.each([
    ["ERR_INVALID_EVENT_CONTENT", "s.message.text", "Invalid s.message.text content"],
    ["ERR_INVALID_EVENT_CONTENT", undefined, "Invalid event content"],
    ["ERR_INVALID_WEBHOOK_PAYLOAD", "s.message.text", "Invalid webhook payload (s.message.text)"],
    ["ERR_INVALID_WEBHOOK_PAYLOAD", undefined, "Invalid webhook payload"],
    ["ERR_UNKNOWN_EVENT_TYPE", "s.nope", "Unknown event type"],
    ["ERR_INVALID_EVENT_DOCUMENT", undefined, "Invalid JSON:API event document"],
    ["ERR_INVALID_OPTIONS", undefined, "Invalid options"],
    ["ERR_INVALID_EVENT", undefined, "Invalid event"],
    // A code the class does not know (JavaScript callers can pass any string) gets the generic
    // title, never a member of Object.prototype.
    ["toString", undefined, "Invalid event"],
    ["constructor", undefined, "Invalid event"],
  ])("titles %s (type %s) as %j", (code, type, title) => {
    const error = new EventValidationError(code as EventValidationErrorCode, type, [issue]);
    expect(error.message).toBe(`${title}: ${issue.message}`);
    // An error made for a safe… result writes the same message when it is first read.
    expect(validationError(code as EventValidationErrorCode, type, [issue]).message).toBe(error.message);
  });

  it("makes errors for safe… results that are errors of the class like the constructor's", () => {
    const made = new EventValidationError("ERR_INVALID_EVENT_CONTENT", "s.message.text", [issue], 2);
    const lazy = validationError("ERR_INVALID_EVENT_CONTENT", "s.message.text", [issue], 2);
    for (const error of [made, lazy]) {
      expect(error).toBeInstanceOf(EventValidationError);
      expect(error).toBeInstanceOf(Error);
      expect(Object.getPrototypeOf(error)).toBe(EventValidationError.prototype);
      expect(error.constructor).toBe(EventValidationError);
      expect(error.name).toBe("EventValidationError");
      expect(isEventValidationError(error)).toBe(true);
      expect(error.code).toBe("ERR_INVALID_EVENT_CONTENT");
      expect(error.eventType).toBe("s.message.text");
      expect(error.issues).toEqual([issue]);
      expect(error.omittedIssues).toBe(2);
    }
    expect(lazy.message).toBe(made.message);
    // The data members come first and in the same order; the message is the constructor's own.
    expect(Object.keys(lazy)).toEqual(["code", "eventType", "issues", "omittedIssues"]);
    expect(lazy.stack).toBe(`EventValidationError: ${made.message}`);
  });
});
