/**
 * The 32 content schemas written by hand in TypeBox, from the library's Zod schemas, for the
 * benchmark. Strict objects are `additionalProperties: false`; the three loose ones require their
 * extra members to be JSON values, as ours do.
 */
import { FormatRegistry, type TSchema, Type } from "@sinclair/typebox";
import type { EventType } from "../../src/events/index.js";
import { codePointLength } from "../../src/internal/codePointLength.js";
import { DATE_TIME_PATTERN } from "../../src/internal/dateTime.js";

// TypeBox's maxLength counts UTF-16 units; ours counts code points (an emoji is one). A format is
// the smallest custom check TypeBox offers, and its compiler calls it like any other check.
FormatRegistry.Set("max-100-code-points", (value) => value.length <= 100 || codePointLength(value) <= 100);
FormatRegistry.Set("max-2-code-points", (value) => value.length <= 2 || codePointLength(value) <= 2);

const strict = { additionalProperties: false } as const;
const str = () => Type.String();
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const dateTime = () => Type.String({ pattern: DATE_TIME_PATTERN.source });
const format100 = () => Type.String({ format: "max-100-code-points" });
const language = () => Type.String({ format: "max-2-code-points" });
const oneOf = (values: readonly string[]) => Type.Union(values.map((value) => Type.Literal(value)));

/** Any JSON value: TypeBox's numbers are finite by default, as JSON's are. */
export const jsonValue = /* @__PURE__ */ Type.Recursive((self) =>
  Type.Union([
    Type.String(),
    Type.Number(),
    Type.Boolean(),
    Type.Null(),
    Type.Array(self),
    Type.Object({}, { additionalProperties: self }),
  ]),
);
const jsonObject = () => Type.Object({}, { additionalProperties: jsonValue });
/** An object whose members beyond the declared ones must be JSON values. */
const loose = { additionalProperties: jsonValue } as const;

const emptyObject = () => Type.Object({}, strict);
const booleanValue = () => Type.Object({ value: Type.Boolean() }, strict);
const assignee = () => oneOf(["Agent", "Bot"]);
const trigger = () => oneOf(["Auto", "Manual"]);

const option = /* @__PURE__ */ Type.Object(
  { value: str(), label: str(), url: opt(Type.Union([str(), Type.Null()])) },
  strict,
);
const booleanOption = (value: "true" | "false") =>
  Type.Object({ label: str(), value: Type.Literal(value) }, strict);
// "true" and "false" once each, in either order: two tuples express it without a custom check.
const booleanOptions = /* @__PURE__ */ Type.Union([
  Type.Tuple([booleanOption("true"), booleanOption("false")]),
  Type.Tuple([booleanOption("false"), booleanOption("true")]),
]);
const actionCommon = {
  body: str(),
  writeable: Type.Array(str(), { minItems: 1 }),
  action: opt(str()),
  label: opt(str()),
  format: opt(Type.Union([Type.Literal("text/plain"), Type.Literal("text/html"), Type.Null()])),
  repeatable: opt(Type.Boolean()),
  required: opt(Type.Boolean()),
};
const options = /* @__PURE__ */ Type.Array(option, { minItems: 1 });

/** The s.message.text schema, alone (what the one-type bundle measures). */
export const messageText = /* @__PURE__ */ Type.Object(
  { body: str(), format: opt(format100()), annotations: opt(jsonObject()) },
  loose,
);

const media = (present: "label" | "body", absent: "label" | "body") =>
  // `Optional(Never)`: the other member must be absent, so exactly one of label or body is present.
  Type.Object(
    { [present]: str(), [absent]: opt(Type.Never()), mediaId: str(), annotations: opt(jsonObject()) },
    loose,
  );

/** Every content schema, by event type. */
export const typeboxSchemas: { readonly [T in EventType]: TSchema } = /* @__PURE__ */ (() => ({
  "s.change": Type.Object({ id: str(), type: str(), relationship: opt(str()) }, strict),
  "s.presence": Type.Object(
    { status: oneOf(["OFFLINE", "INVISIBLE", "INACTIVE", "AWAY", "ONLINE"]) },
    strict,
  ),
  "s.delete": jsonValue,
  "s.form.submission": jsonValue,
  "s.support.open": jsonValue,
  "s.receipt": emptyObject(),
  "s.room.close": emptyObject(),
  "s.room.typing": emptyObject(),
  "s.message.preview.track": emptyObject(),
  "s.support.inactive": emptyObject(),
  "s.form": Type.Object({ formId: Type.String({ minLength: 1 }), inline: opt(Type.Boolean()) }, strict),
  "s.invitation": Type.Object({ roomId: str(), inviterId: str() }, strict),
  "s.mention": Type.Object({ eventId: str() }, strict),
  "s.message.text": messageText,
  "s.message.text.translation": Type.Object(
    { body: str(), format: opt(format100()), sourceLanguage: language(), targetLanguage: language() },
    strict,
  ),
  "s.message.media": Type.Union([media("label", "body"), media("body", "label")]),
  "s.message.edit": Type.Object(
    {
      body: str(),
      editedType: opt(oneOf(["s.message.media", "s.message.text"])),
      annotations: opt(jsonObject()),
    },
    strict,
  ),
  "s.message.preview": Type.Object(
    {
      url: str(),
      title: opt(str()),
      author: opt(str()),
      description: opt(str()),
      image: opt(str()),
      fileId: opt(str()),
    },
    loose,
  ),
  "s.message.action": Type.Union([
    Type.Object({ ...actionCommon, type: oneOf(["text", "textarea", "email"]) }, strict),
    Type.Object(
      {
        ...actionCommon,
        type: Type.Literal("date"),
        min: dateTime(),
        max: dateTime(),
        center: opt(Type.Union([dateTime(), Type.Null()])),
      },
      strict,
    ),
    Type.Object({ ...actionCommon, type: Type.Literal("boolean"), options: booleanOptions }, strict),
    Type.Object({ ...actionCommon, type: oneOf(["button", "link"]), options }, strict),
    Type.Object({ ...actionCommon, type: Type.Literal("select"), multiple: Type.Boolean(), options }, strict),
  ]),
  "s.message.action.invocation": Type.Object(
    {
      value: Type.Union([str(), Type.Number(), Type.Array(str())]),
      label: opt(Type.Union([str(), Type.Null()])),
    },
    strict,
  ),
  "s.message.action.invocation.validation": Type.Object(
    { result: oneOf(["SUCCESS", "FAILURE"]), reason: opt(str()) },
    strict,
  ),
  "s.room.blocked": booleanValue(),
  "s.room.pin": booleanValue(),
  "s.room.setting": booleanValue(),
  "s.room.user.setting": booleanValue(),
  "s.room.create": Type.Object({ creatorId: str() }, strict),
  "s.room.membership": Type.Union([
    Type.Object(
      {
        membership: Type.Literal("join"),
        initiatorId: opt(str()),
        sticky: opt(Type.Boolean()),
        assignee: opt(assignee()),
        trigger: opt(trigger()),
      },
      strict,
    ),
    Type.Object(
      { membership: Type.Literal("leave"), assignee: opt(assignee()), trigger: opt(trigger()) },
      strict,
    ),
    Type.Object({ membership: Type.Literal("invite"), inviteeId: str() }, strict),
  ]),
  "s.support.close": Type.Object({ trigger: opt(trigger()) }, strict),
  "s.support.delegate": Type.Object(
    {
      type: oneOf(["Agent", "CRM"]),
      agentId: opt(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    },
    strict,
  ),
  "s.support.request": Type.Object({ liveChatId: str(), preconditions: opt(jsonObject()) }, strict),
  "s.support.request.rejected": Type.Object(
    { reason: oneOf(["NO_OPERATOR_AVAILABLE", "OUTSIDE_BUSINESS_HOURS", "SERVER_ERROR"]) },
    strict,
  ),
  "s.timer": Type.Union([
    Type.Object({ status: Type.Literal("RUNNING"), expires: dateTime() }, strict),
    Type.Object({ status: oneOf(["CANCELLED", "EXPIRED"]) }, strict),
  ]),
}))();
