export { changeContent } from "./content/changeContent.js";
export { deleteContent } from "./content/deleteContent.js";
export { formContent } from "./content/formContent.js";
export { formSubmissionContent } from "./content/formSubmissionContent.js";
export { invitationContent } from "./content/invitationContent.js";
export { mentionContent } from "./content/mentionContent.js";
export { messageActionContent } from "./content/messageActionContent.js";
export { messageActionInvocationContent } from "./content/messageActionInvocationContent.js";
export { messageActionInvocationValidationContent } from "./content/messageActionInvocationValidationContent.js";
export { messageEditContent } from "./content/messageEditContent.js";
export { messageMediaContent } from "./content/messageMediaContent.js";
export { messagePreviewContent } from "./content/messagePreviewContent.js";
export { messagePreviewTrackContent } from "./content/messagePreviewTrackContent.js";
export { messageTextContent } from "./content/messageTextContent.js";
export { messageTextTranslationContent } from "./content/messageTextTranslationContent.js";
export { presenceContent } from "./content/presenceContent.js";
export { receiptContent } from "./content/receiptContent.js";
export { roomBlockedContent } from "./content/roomBlockedContent.js";
export { roomCloseContent } from "./content/roomCloseContent.js";
export { roomCreateContent } from "./content/roomCreateContent.js";
export { roomMembershipContent } from "./content/roomMembershipContent.js";
export { roomPinContent } from "./content/roomPinContent.js";
export { roomSettingContent } from "./content/roomSettingContent.js";
export { roomTypingContent } from "./content/roomTypingContent.js";
export { roomUserSettingContent } from "./content/roomUserSettingContent.js";
export { supportCloseContent } from "./content/supportCloseContent.js";
export { supportDelegateContent } from "./content/supportDelegateContent.js";
export { supportInactiveContent } from "./content/supportInactiveContent.js";
export { supportOpenContent } from "./content/supportOpenContent.js";
export { supportRequestContent } from "./content/supportRequestContent.js";
export { supportRequestRejectedContent } from "./content/supportRequestRejectedContent.js";
export { timerContent } from "./content/timerContent.js";
export * from "./contentGuards.js";
export * from "./contentParsers.js";
export type { EventContent, EventContentInput, EventContentSchemas, MessagingEvent } from "./EventContent.js";
export {
  EventValidationError,
  type EventValidationErrorCode,
  type EventValidationIssue,
  type EventValidationIssueCode,
  isEventValidationError,
} from "./EventValidationError.js";
export type {
  EventValidationExpected,
  EventValidationIssueParams,
  EventValidationLiteral,
  EventValidationReceived,
} from "./EventValidationIssueParams.js";
export { eventContentSchemas } from "./eventContentSchemas.js";
export { type EventVariantSchema, eventSchema } from "./eventSchema.js";
export { type EventScope, eventScope } from "./eventScope.js";
export { type EventType, eventTypes } from "./eventTypes.js";
export { isEvent } from "./isEvent.js";
export { isEventContent } from "./isEventContent.js";
export { isEventType } from "./isEventType.js";
export type { JsonObject, JsonValue } from "./JsonValue.js";
export { parseEvent } from "./parseEvent.js";
export { parseEventContent } from "./parseEventContent.js";
export type { SafeParseResult } from "./SafeParseResult.js";
export { parseContent, safeParseContent } from "./safeParseContent.js";
export { safeParseEvent } from "./safeParseEvent.js";
export { safeParseEventContent } from "./safeParseEventContent.js";
export { toJsonPointer } from "./toJsonPointer.js";
export type { ValidationLimits } from "./ValidationLimits.js";
