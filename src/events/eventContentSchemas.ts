import { changeContent } from "./content/changeContent.js";
import { deleteContent } from "./content/deleteContent.js";
import { formContent } from "./content/formContent.js";
import { formSubmissionContent } from "./content/formSubmissionContent.js";
import { invitationContent } from "./content/invitationContent.js";
import { mentionContent } from "./content/mentionContent.js";
import { messageActionContent } from "./content/messageActionContent.js";
import { messageActionInvocationContent } from "./content/messageActionInvocationContent.js";
import { messageActionInvocationValidationContent } from "./content/messageActionInvocationValidationContent.js";
import { messageEditContent } from "./content/messageEditContent.js";
import { messageMediaContent } from "./content/messageMediaContent.js";
import { messagePreviewContent } from "./content/messagePreviewContent.js";
import { messagePreviewTrackContent } from "./content/messagePreviewTrackContent.js";
import { messageTextContent } from "./content/messageTextContent.js";
import { messageTextTranslationContent } from "./content/messageTextTranslationContent.js";
import { presenceContent } from "./content/presenceContent.js";
import { receiptContent } from "./content/receiptContent.js";
import { roomBlockedContent } from "./content/roomBlockedContent.js";
import { roomCloseContent } from "./content/roomCloseContent.js";
import { roomCreateContent } from "./content/roomCreateContent.js";
import { roomMembershipContent } from "./content/roomMembershipContent.js";
import { roomPinContent } from "./content/roomPinContent.js";
import { roomSettingContent } from "./content/roomSettingContent.js";
import { roomTypingContent } from "./content/roomTypingContent.js";
import { roomUserSettingContent } from "./content/roomUserSettingContent.js";
import { supportCloseContent } from "./content/supportCloseContent.js";
import { supportDelegateContent } from "./content/supportDelegateContent.js";
import { supportInactiveContent } from "./content/supportInactiveContent.js";
import { supportOpenContent } from "./content/supportOpenContent.js";
import { supportRequestContent } from "./content/supportRequestContent.js";
import { supportRequestRejectedContent } from "./content/supportRequestRejectedContent.js";
import { timerContent } from "./content/timerContent.js";

/**
 * The content schema of every event type, keyed by type. Use it to look a schema up from a type
 * known only at run time; import the named schema (`messageTextContent`) when the type is fixed,
 * so that a bundler keeps only that one.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { eventContentSchemas } from "messaging-events/events";
 *
 * const schema = eventContentSchemas["s.room.create"];
 * schema.parse({ creatorId: "user-7" });
 * ```
 */
export const eventContentSchemas = {
  "s.change": changeContent,
  "s.presence": presenceContent,
  "s.delete": deleteContent,
  "s.form.submission": formSubmissionContent,
  "s.support.open": supportOpenContent,
  "s.receipt": receiptContent,
  "s.room.close": roomCloseContent,
  "s.room.typing": roomTypingContent,
  "s.message.preview.track": messagePreviewTrackContent,
  "s.support.inactive": supportInactiveContent,
  "s.form": formContent,
  "s.invitation": invitationContent,
  "s.mention": mentionContent,
  "s.message.text": messageTextContent,
  "s.message.text.translation": messageTextTranslationContent,
  "s.message.media": messageMediaContent,
  "s.message.edit": messageEditContent,
  "s.message.preview": messagePreviewContent,
  "s.message.action": messageActionContent,
  "s.message.action.invocation": messageActionInvocationContent,
  "s.message.action.invocation.validation": messageActionInvocationValidationContent,
  "s.room.blocked": roomBlockedContent,
  "s.room.pin": roomPinContent,
  "s.room.setting": roomSettingContent,
  "s.room.user.setting": roomUserSettingContent,
  "s.room.create": roomCreateContent,
  "s.room.membership": roomMembershipContent,
  "s.support.close": supportCloseContent,
  "s.support.delegate": supportDelegateContent,
  "s.support.request": supportRequestContent,
  "s.support.request.rejected": supportRequestRejectedContent,
  "s.timer": timerContent,
} as const;
