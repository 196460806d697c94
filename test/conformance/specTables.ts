/**
 * The field tables of the spec (section 2.3), transcribed as data. `generateCases` turns each table
 * into valid and invalid conformance cases; `handwrittenCases` adds the rules a table cannot say.
 */
import type { EventType } from "../../src/events/index.js";

export type FieldSpec =
  | { kind: "string"; required?: boolean; maxLength?: number; minLength?: number; nullable?: boolean }
  | { kind: "boolean"; required?: boolean }
  | { kind: "enum"; values: readonly string[]; required?: boolean; nullable?: boolean }
  | { kind: "dateTime"; required?: boolean; nullable?: boolean }
  | { kind: "jsonObject"; required?: boolean }
  | { kind: "stringArray"; required?: boolean; minItems?: number }
  | { kind: "options"; required?: boolean }
  | { kind: "booleanOptions"; required?: boolean };

/** One object shape: a whole content, or one variant of a discriminated union. */
export interface ObjectTable {
  readonly type: EventType;
  /** For a union variant: the discriminator member and its value, always present. */
  readonly tag?: { readonly key: string; readonly value: string };
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** "additional properties allowed" in the spec. */
  readonly additional: boolean;
  /** Members that every valid instance needs besides the fields (the media rule's choice). */
  readonly base?: Readonly<Record<string, unknown>>;
}

const actionCommon: Record<string, FieldSpec> = {
  body: { kind: "string", required: true },
  writeable: { kind: "stringArray", required: true, minItems: 1 },
  action: { kind: "string" },
  label: { kind: "string" },
  format: { kind: "enum", values: ["text/plain", "text/html"], nullable: true },
  repeatable: { kind: "boolean" },
  required: { kind: "boolean" },
};

const assignee = { kind: "enum", values: ["Agent", "Bot"] } as const;
const trigger = { kind: "enum", values: ["Auto", "Manual"] } as const;

export const objectTables: readonly ObjectTable[] = [
  {
    type: "s.change",
    additional: false,
    fields: {
      id: { kind: "string", required: true },
      type: { kind: "string", required: true },
      relationship: { kind: "string" },
    },
  },
  {
    type: "s.presence",
    additional: false,
    fields: {
      status: {
        kind: "enum",
        values: ["OFFLINE", "INVISIBLE", "INACTIVE", "AWAY", "ONLINE"],
        required: true,
      },
    },
  },
  { type: "s.receipt", additional: false, fields: {} },
  { type: "s.room.close", additional: false, fields: {} },
  { type: "s.room.typing", additional: false, fields: {} },
  { type: "s.message.preview.track", additional: false, fields: {} },
  { type: "s.support.inactive", additional: false, fields: {} },
  {
    type: "s.form",
    additional: false,
    fields: { formId: { kind: "string", required: true, minLength: 1 }, inline: { kind: "boolean" } },
  },
  {
    type: "s.invitation",
    additional: false,
    fields: { roomId: { kind: "string", required: true }, inviterId: { kind: "string", required: true } },
  },
  { type: "s.mention", additional: false, fields: { eventId: { kind: "string", required: true } } },
  {
    type: "s.message.text",
    additional: true,
    fields: {
      body: { kind: "string", required: true },
      format: { kind: "string", maxLength: 100 },
      annotations: { kind: "jsonObject" },
    },
  },
  {
    type: "s.message.text.translation",
    additional: false,
    fields: {
      body: { kind: "string", required: true },
      format: { kind: "string", maxLength: 100 },
      sourceLanguage: { kind: "string", required: true, maxLength: 2 },
      targetLanguage: { kind: "string", required: true, maxLength: 2 },
    },
  },
  // The media rule needs exactly one of label and body: the table runs once with each.
  {
    type: "s.message.media",
    additional: true,
    base: { label: "cat.jpg" },
    fields: { mediaId: { kind: "string", required: true }, annotations: { kind: "jsonObject" } },
  },
  {
    type: "s.message.media",
    additional: true,
    base: { body: "A cat on a mat" },
    fields: { mediaId: { kind: "string", required: true }, annotations: { kind: "jsonObject" } },
  },
  {
    type: "s.message.edit",
    additional: false,
    fields: {
      body: { kind: "string", required: true },
      editedType: { kind: "enum", values: ["s.message.media", "s.message.text"] },
      annotations: { kind: "jsonObject" },
    },
  },
  {
    type: "s.message.preview",
    additional: true,
    fields: {
      url: { kind: "string", required: true },
      title: { kind: "string" },
      author: { kind: "string" },
      description: { kind: "string" },
      image: { kind: "string" },
      fileId: { kind: "string" },
    },
  },
  ...["text", "textarea", "email"].map(
    (value): ObjectTable => ({
      type: "s.message.action",
      tag: { key: "type", value },
      additional: false,
      fields: actionCommon,
    }),
  ),
  {
    type: "s.message.action",
    tag: { key: "type", value: "date" },
    additional: false,
    fields: {
      ...actionCommon,
      min: { kind: "dateTime", required: true },
      max: { kind: "dateTime", required: true },
      center: { kind: "dateTime", nullable: true },
    },
  },
  {
    type: "s.message.action",
    tag: { key: "type", value: "boolean" },
    additional: false,
    fields: { ...actionCommon, options: { kind: "booleanOptions", required: true } },
  },
  ...["button", "link"].map(
    (value): ObjectTable => ({
      type: "s.message.action",
      tag: { key: "type", value },
      additional: false,
      fields: { ...actionCommon, options: { kind: "options", required: true } },
    }),
  ),
  {
    type: "s.message.action",
    tag: { key: "type", value: "select" },
    additional: false,
    fields: {
      ...actionCommon,
      multiple: { kind: "boolean", required: true },
      options: { kind: "options", required: true },
    },
  },
  {
    type: "s.message.action.invocation.validation",
    additional: false,
    fields: {
      result: { kind: "enum", values: ["SUCCESS", "FAILURE"], required: true },
      reason: { kind: "string" },
    },
  },
  { type: "s.room.blocked", additional: false, fields: { value: { kind: "boolean", required: true } } },
  { type: "s.room.pin", additional: false, fields: { value: { kind: "boolean", required: true } } },
  { type: "s.room.setting", additional: false, fields: { value: { kind: "boolean", required: true } } },
  { type: "s.room.user.setting", additional: false, fields: { value: { kind: "boolean", required: true } } },
  { type: "s.room.create", additional: false, fields: { creatorId: { kind: "string", required: true } } },
  {
    type: "s.room.membership",
    tag: { key: "membership", value: "join" },
    additional: false,
    fields: { initiatorId: { kind: "string" }, sticky: { kind: "boolean" }, assignee, trigger },
  },
  {
    type: "s.room.membership",
    tag: { key: "membership", value: "leave" },
    additional: false,
    fields: { assignee, trigger },
  },
  {
    type: "s.room.membership",
    tag: { key: "membership", value: "invite" },
    additional: false,
    fields: { inviteeId: { kind: "string", required: true } },
  },
  { type: "s.support.close", additional: false, fields: { trigger } },
  {
    type: "s.support.delegate",
    additional: false,
    fields: {
      type: { kind: "enum", values: ["Agent", "CRM"], required: true },
      agentId: { kind: "string", minLength: 1, nullable: true },
    },
  },
  {
    type: "s.support.request",
    additional: false,
    fields: { liveChatId: { kind: "string", required: true }, preconditions: { kind: "jsonObject" } },
  },
  {
    type: "s.support.request.rejected",
    additional: false,
    fields: {
      reason: {
        kind: "enum",
        values: ["NO_OPERATOR_AVAILABLE", "OUTSIDE_BUSINESS_HOURS", "SERVER_ERROR"],
        required: true,
      },
    },
  },
  {
    type: "s.timer",
    tag: { key: "status", value: "RUNNING" },
    additional: false,
    fields: { expires: { kind: "dateTime", required: true } },
  },
  ...["CANCELLED", "EXPIRED"].map(
    (value): ObjectTable => ({
      type: "s.timer",
      tag: { key: "status", value },
      additional: false,
      fields: {},
    }),
  ),
];

/** The discriminated unions: their tag member and every allowed tag value. */
export const unionTags: readonly { type: EventType; key: string; values: readonly string[] }[] = [
  {
    type: "s.message.action",
    key: "type",
    values: ["text", "textarea", "email", "date", "boolean", "button", "link", "select"],
  },
  { type: "s.room.membership", key: "membership", values: ["join", "leave", "invite"] },
  { type: "s.timer", key: "status", values: ["RUNNING", "CANCELLED", "EXPIRED"] },
];

/** The types whose content is the empty schema: any JSON value. */
export const anyJsonTypes: readonly EventType[] = ["s.delete", "s.form.submission", "s.support.open"];
