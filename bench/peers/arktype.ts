/**
 * The 32 content schemas written by hand in arktype, from the library's Zod schemas, for the
 * benchmark. Strict objects declare `"+": "reject"` (undeclared keys are errors); the three loose
 * ones require their extra members to be JSON values through an index signature.
 */
import { scope, type as t } from "arktype";
import type { EventType } from "../../src/events/index.js";
import { codePointLength } from "../../src/internal/codePointLength.js";
import { DATE_TIME_PATTERN } from "../../src/internal/dateTime.js";

// Narrowing is arktype's custom check. `number` admits Infinity and an index signature admits
// arrays, so both get one. (arktype 2.2.9 skips the number narrow inside arrays of this cyclic
// scope: `[Infinity]` passes. Benchmark inputs are JSON, so they never hold a non-finite number.)
const finite = t("number").narrow((value, ctx) => Number.isFinite(value) || ctx.mustBe("a finite number"));
const json = scope({
  value: ["string | boolean | null | array | object", "|", finite],
  array: "value[]",
  object: [
    { "[string]": "value" },
    ":",
    (value: object, ctx) => !Array.isArray(value) || ctx.mustBe("an object"),
  ],
}).export();

/** Any JSON value. */
export const jsonValue = json.value;
const jsonObject = json.object;

// arktype's length bounds count UTF-16 units; ours counts code points (an emoji is one).
const maxCodePoints = (maximum: number) =>
  t("string").narrow(
    (value, ctx) =>
      value.length <= maximum ||
      codePointLength(value) <= maximum ||
      ctx.mustBe(`at most ${maximum} code points`),
  );
const dateTime = t(DATE_TIME_PATTERN);
const format100 = maxCodePoints(100);
const language = maxCodePoints(2);

// An arktype object admits arrays (objects too): where every key is optional, `[]` would pass.
const notArray = (value: object, ctx: { mustBe: (description: string) => false }) =>
  !Array.isArray(value) || ctx.mustBe("an object");
const emptyObject = t({ "+": "reject" }).narrow(notArray);
const booleanValue = t({ "+": "reject", value: "boolean" });
const assignee = t("'Agent' | 'Bot'");
const trigger = t("'Auto' | 'Manual'");

const option = t({ "+": "reject", value: "string", label: "string", "url?": "string | null" });
const booleanOption = (value: "true" | "false") =>
  t({ "+": "reject", label: "string", value: t.unit(value) });
// "true" and "false" once each, in either order: two tuples express it without a custom check.
const booleanOptions = t([booleanOption("true"), booleanOption("false")]).or([
  booleanOption("false"),
  booleanOption("true"),
]);
const options = option.array().atLeastLength(1);
const actionCommon = {
  "+": "reject",
  body: "string",
  writeable: t("string[]").atLeastLength(1),
  "action?": "string",
  "label?": "string",
  "format?": "'text/plain' | 'text/html' | null",
  "repeatable?": "boolean",
  "required?": "boolean",
} as const;

/** The s.message.text schema, alone. */
export const messageText = t({
  body: "string",
  "format?": format100,
  "annotations?": jsonObject,
  "[string]": jsonValue,
});

// `"body?": "never"`: the other member must be absent, so exactly one of label or body is present.
const media = t({
  label: "string",
  "body?": "never",
  mediaId: "string",
  "annotations?": jsonObject,
  "[string]": jsonValue,
}).or({
  body: "string",
  "label?": "never",
  mediaId: "string",
  "annotations?": jsonObject,
  "[string]": jsonValue,
});

/** What the benchmark calls on an arktype schema. */
export interface ArkSchema {
  (data: unknown): unknown;
  allows(data: unknown): boolean;
}

/** Every content schema, by event type. */
export const arktypeSchemas: { readonly [T in EventType]: ArkSchema } = {
  "s.change": t({ "+": "reject", id: "string", type: "string", "relationship?": "string" }),
  "s.presence": t({ "+": "reject", status: "'OFFLINE' | 'INVISIBLE' | 'INACTIVE' | 'AWAY' | 'ONLINE'" }),
  "s.delete": jsonValue,
  "s.form.submission": jsonValue,
  "s.support.open": jsonValue,
  "s.receipt": emptyObject,
  "s.room.close": emptyObject,
  "s.room.typing": emptyObject,
  "s.message.preview.track": emptyObject,
  "s.support.inactive": emptyObject,
  "s.form": t({ "+": "reject", formId: "string > 0", "inline?": "boolean" }),
  "s.invitation": t({ "+": "reject", roomId: "string", inviterId: "string" }),
  "s.mention": t({ "+": "reject", eventId: "string" }),
  "s.message.text": messageText,
  "s.message.text.translation": t({
    "+": "reject",
    body: "string",
    "format?": format100,
    sourceLanguage: language,
    targetLanguage: language,
  }),
  "s.message.media": media,
  "s.message.edit": t({
    "+": "reject",
    body: "string",
    "editedType?": "'s.message.media' | 's.message.text'",
    "annotations?": jsonObject,
  }),
  "s.message.preview": t({
    url: "string",
    "title?": "string",
    "author?": "string",
    "description?": "string",
    "image?": "string",
    "fileId?": "string",
    "[string]": jsonValue,
  }),
  "s.message.action": t.or(
    { ...actionCommon, type: "'text' | 'textarea' | 'email'" },
    { ...actionCommon, type: "'date'", min: dateTime, max: dateTime, "center?": dateTime.or("null") },
    { ...actionCommon, type: "'boolean'", options: booleanOptions },
    { ...actionCommon, type: "'button' | 'link'", options },
    { ...actionCommon, type: "'select'", multiple: "boolean", options },
  ),
  "s.message.action.invocation": t({
    "+": "reject",
    value: t("string | string[]").or(finite),
    "label?": "string | null",
  }),
  "s.message.action.invocation.validation": t({
    "+": "reject",
    result: "'SUCCESS' | 'FAILURE'",
    "reason?": "string",
  }),
  "s.room.blocked": booleanValue,
  "s.room.pin": booleanValue,
  "s.room.setting": booleanValue,
  "s.room.user.setting": booleanValue,
  "s.room.create": t({ "+": "reject", creatorId: "string" }),
  "s.room.membership": t.or(
    {
      "+": "reject",
      membership: "'join'",
      "initiatorId?": "string",
      "sticky?": "boolean",
      "assignee?": assignee,
      "trigger?": trigger,
    },
    { "+": "reject", membership: "'leave'", "assignee?": assignee, "trigger?": trigger },
    { "+": "reject", membership: "'invite'", inviteeId: "string" },
  ),
  "s.support.close": t({ "+": "reject", "trigger?": trigger }).narrow(notArray),
  "s.support.delegate": t({ "+": "reject", type: "'Agent' | 'CRM'", "agentId?": "string > 0 | null" }),
  "s.support.request": t({ "+": "reject", liveChatId: "string", "preconditions?": jsonObject }),
  "s.support.request.rejected": t({
    "+": "reject",
    reason: "'NO_OPERATOR_AVAILABLE' | 'OUTSIDE_BUSINESS_HOURS' | 'SERVER_ERROR'",
  }),
  "s.timer": t.or(
    { "+": "reject", status: "'RUNNING'", expires: dateTime },
    { "+": "reject", status: "'CANCELLED' | 'EXPIRED'" },
  ),
};
