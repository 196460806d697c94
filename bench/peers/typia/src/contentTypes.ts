/**
 * The 32 content types written by hand as TypeScript types with typia tags, from the library's Zod
 * schemas, for the benchmark. typia's `equals` rejects undeclared members, so the strict objects are
 * plain interfaces; the three loose ones carry an index signature of JSON values.
 */
import type { tags } from "typia";

// typia admits Infinity for a bare `number` (its "double" tag too): a custom tag checks finiteness.
export type Finite = number &
  tags.TagBase<{ kind: "finite"; target: "number"; value: undefined; validate: "Number.isFinite($input)" }>;
export type JsonValue = string | Finite | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// typia's MaxLength counts UTF-16 units; ours counts code points. A custom tag is typia's custom
// check: spreading a string yields its code points (a lone surrogate counts as one, as ours does).
type MaxCodePoints<N extends number> = tags.TagBase<{
  kind: "maxCodePoints";
  target: "string";
  value: N;
  validate: `$input.length <= ${N} || [...$input].length <= ${N}`;
}>;

/** DATE_TIME_PATTERN of src/internal/dateTime.ts, spelled as a type (the benchmark checks they agree). */
export type DateTime = string &
  tags.Pattern<"^(?:(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29|[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8])))T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$">;

type Empty = Record<string, never>;
interface BooleanValue {
  value: boolean;
}
type Assignee = "Agent" | "Bot";
type Trigger = "Auto" | "Manual";

export interface Change {
  id: string;
  type: string;
  relationship?: string;
}
export interface Presence {
  status: "OFFLINE" | "INVISIBLE" | "INACTIVE" | "AWAY" | "ONLINE";
}
export type Receipt = Empty;
export interface Form {
  formId: string & tags.MinLength<1>;
  inline?: boolean;
}
export interface Invitation {
  roomId: string;
  inviterId: string;
}
export interface Mention {
  eventId: string;
}
export interface MessageText {
  body: string;
  format?: string & MaxCodePoints<100>;
  annotations?: JsonObject;
  [key: string]: JsonValue | undefined;
}
export interface MessageTextTranslation {
  body: string;
  format?: string & MaxCodePoints<100>;
  sourceLanguage: string & MaxCodePoints<2>;
  targetLanguage: string & MaxCodePoints<2>;
}
interface MediaCommon {
  mediaId: string;
  annotations?: JsonObject;
  [key: string]: JsonValue | undefined;
}
// `?: undefined`: the other member must be absent, so exactly one of label or body is present.
export type MessageMedia =
  | (MediaCommon & { label: string; body?: undefined })
  | (MediaCommon & { body: string; label?: undefined });
export interface MessageEdit {
  body: string;
  editedType?: "s.message.media" | "s.message.text";
  annotations?: JsonObject;
}
export interface MessagePreview {
  url: string;
  title?: string;
  author?: string;
  description?: string;
  image?: string;
  fileId?: string;
  [key: string]: JsonValue | undefined;
}
interface ActionCommon {
  body: string;
  writeable: string[] & tags.MinItems<1>;
  action?: string;
  label?: string;
  format?: "text/plain" | "text/html" | null;
  repeatable?: boolean;
  required?: boolean;
}
interface ActionOption {
  value: string;
  label: string;
  url?: string | null;
}
interface BooleanOption<V extends "true" | "false"> {
  label: string;
  value: V;
}
type ActionOptions = ActionOption[] & tags.MinItems<1>;
export type MessageAction =
  | (ActionCommon & { type: "text" | "textarea" | "email" })
  | (ActionCommon & { type: "date"; min: DateTime; max: DateTime; center?: DateTime | null })
  | (ActionCommon & {
      type: "boolean";
      // "true" and "false" once each, in either order: two tuples express it without a custom check.
      options:
        | [BooleanOption<"true">, BooleanOption<"false">]
        | [BooleanOption<"false">, BooleanOption<"true">];
    })
  | (ActionCommon & { type: "button" | "link"; options: ActionOptions })
  | (ActionCommon & { type: "select"; multiple: boolean; options: ActionOptions });
export interface MessageActionInvocation {
  value: string | Finite | string[];
  label?: string | null;
}
export interface MessageActionInvocationValidation {
  result: "SUCCESS" | "FAILURE";
  reason?: string;
}
export type RoomBlocked = BooleanValue;
export interface RoomCreate {
  creatorId: string;
}
export type RoomMembership =
  | { membership: "join"; initiatorId?: string; sticky?: boolean; assignee?: Assignee; trigger?: Trigger }
  | { membership: "leave"; assignee?: Assignee; trigger?: Trigger }
  | { membership: "invite"; inviteeId: string };
export interface SupportClose {
  trigger?: Trigger;
}
export interface SupportDelegate {
  type: "Agent" | "CRM";
  agentId?: (string & tags.MinLength<1>) | null;
}
export interface SupportRequest {
  liveChatId: string;
  preconditions?: JsonObject;
}
export interface SupportRequestRejected {
  reason: "NO_OPERATOR_AVAILABLE" | "OUTSIDE_BUSINESS_HOURS" | "SERVER_ERROR";
}
export type Timer = { status: "RUNNING"; expires: DateTime } | { status: "CANCELLED" | "EXPIRED" };
