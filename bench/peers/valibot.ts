/**
 * The 32 content schemas written by hand in valibot, from the library's Zod schemas, for the
 * benchmark. Strict objects are `strictObject`; the three loose ones take JSON values as the rest.
 */
import * as v from "valibot";
import type { EventType } from "../../src/events/index.js";
import { codePointLength } from "../../src/internal/codePointLength.js";
import { DATE_TIME_PATTERN } from "../../src/internal/dateTime.js";

type Schema = v.GenericSchema;

// valibot's maxLength counts UTF-16 units; ours counts code points: `check` is its custom rule.
const maxCodePoints = (maximum: number) =>
  v.pipe(
    v.string(),
    v.check(
      (value) => value.length <= maximum || codePointLength(value) <= maximum,
      `must be at most ${maximum} code points long`,
    ),
  );
const dateTime = () => v.pipe(v.string(), v.regex(DATE_TIME_PATTERN));
const str = () => v.string();

/** Any JSON value: numbers finite, objects not arrays. */
export const jsonValue: Schema = v.lazy(() =>
  v.union([
    v.string(),
    v.pipe(v.number(), v.finite()),
    v.boolean(),
    v.null(),
    v.array(jsonValue),
    jsonObject,
  ]),
);
// valibot's objects and records admit arrays (a record outputs one as an object, so a check after
// it sees no array): a custom schema in front refuses them where no required key would.
const object = () =>
  v.custom<object>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    "must be an object",
  );
const jsonObject: Schema = v.pipe(object(), v.record(v.string(), jsonValue));

const emptyObject = () => v.pipe(object(), v.strictObject({}));
const booleanValue = () => v.strictObject({ value: v.boolean() });
const assignee = () => v.picklist(["Agent", "Bot"]);
const trigger = () => v.picklist(["Auto", "Manual"]);

const option = v.strictObject({ value: str(), label: str(), url: v.optional(v.nullable(str())) });
const booleanOption = (value: "true" | "false") => v.strictObject({ label: str(), value: v.literal(value) });
// "true" and "false" once each, in either order: two tuples express it without a custom check.
const booleanOptions = /* @__PURE__ */ v.union([
  v.strictTuple([booleanOption("true"), booleanOption("false")]),
  v.strictTuple([booleanOption("false"), booleanOption("true")]),
]);
const actionCommon = {
  body: str(),
  writeable: v.pipe(v.array(str()), v.minLength(1)),
  action: v.optional(str()),
  label: v.optional(str()),
  format: v.optional(v.nullable(v.picklist(["text/plain", "text/html"]))),
  repeatable: v.optional(v.boolean()),
  required: v.optional(v.boolean()),
};
const options = v.pipe(v.array(option), v.minLength(1));

/** The s.message.text schema, alone (what the one-type bundle measures). */
export const messageText = v.objectWithRest(
  { body: str(), format: v.optional(maxCodePoints(100)), annotations: v.optional(jsonObject) },
  jsonValue,
);

// `optional(never())`: the other member must be absent, so exactly one of label or body is present.
const media = (present: "label" | "body", absent: "label" | "body") =>
  v.objectWithRest(
    {
      [present]: str(),
      [absent]: v.optional(v.never()),
      mediaId: str(),
      annotations: v.optional(jsonObject),
    },
    jsonValue,
  );

/** Every content schema, by event type. */
export const valibotSchemas: { readonly [T in EventType]: Schema } = /* @__PURE__ */ (() => ({
  "s.change": v.strictObject({ id: str(), type: str(), relationship: v.optional(str()) }),
  "s.presence": v.strictObject({
    status: v.picklist(["OFFLINE", "INVISIBLE", "INACTIVE", "AWAY", "ONLINE"]),
  }),
  "s.delete": jsonValue,
  "s.form.submission": jsonValue,
  "s.support.open": jsonValue,
  "s.receipt": emptyObject(),
  "s.room.close": emptyObject(),
  "s.room.typing": emptyObject(),
  "s.message.preview.track": emptyObject(),
  "s.support.inactive": emptyObject(),
  "s.form": v.strictObject({ formId: v.pipe(str(), v.minLength(1)), inline: v.optional(v.boolean()) }),
  "s.invitation": v.strictObject({ roomId: str(), inviterId: str() }),
  "s.mention": v.strictObject({ eventId: str() }),
  "s.message.text": messageText,
  "s.message.text.translation": v.strictObject({
    body: str(),
    format: v.optional(maxCodePoints(100)),
    sourceLanguage: maxCodePoints(2),
    targetLanguage: maxCodePoints(2),
  }),
  "s.message.media": v.union([media("label", "body"), media("body", "label")]),
  "s.message.edit": v.strictObject({
    body: str(),
    editedType: v.optional(v.picklist(["s.message.media", "s.message.text"])),
    annotations: v.optional(jsonObject),
  }),
  "s.message.preview": v.objectWithRest(
    {
      url: str(),
      title: v.optional(str()),
      author: v.optional(str()),
      description: v.optional(str()),
      image: v.optional(str()),
      fileId: v.optional(str()),
    },
    jsonValue,
  ),
  "s.message.action": v.variant("type", [
    v.strictObject({ ...actionCommon, type: v.picklist(["text", "textarea", "email"]) }),
    v.strictObject({
      ...actionCommon,
      type: v.literal("date"),
      min: dateTime(),
      max: dateTime(),
      center: v.optional(v.nullable(dateTime())),
    }),
    v.strictObject({ ...actionCommon, type: v.literal("boolean"), options: booleanOptions }),
    v.strictObject({ ...actionCommon, type: v.picklist(["button", "link"]), options }),
    v.strictObject({ ...actionCommon, type: v.literal("select"), multiple: v.boolean(), options }),
  ]),
  "s.message.action.invocation": v.strictObject({
    value: v.union([str(), v.pipe(v.number(), v.finite()), v.array(str())]),
    label: v.optional(v.nullable(str())),
  }),
  "s.message.action.invocation.validation": v.strictObject({
    result: v.picklist(["SUCCESS", "FAILURE"]),
    reason: v.optional(str()),
  }),
  "s.room.blocked": booleanValue(),
  "s.room.pin": booleanValue(),
  "s.room.setting": booleanValue(),
  "s.room.user.setting": booleanValue(),
  "s.room.create": v.strictObject({ creatorId: str() }),
  "s.room.membership": v.variant("membership", [
    v.strictObject({
      membership: v.literal("join"),
      initiatorId: v.optional(str()),
      sticky: v.optional(v.boolean()),
      assignee: v.optional(assignee()),
      trigger: v.optional(trigger()),
    }),
    v.strictObject({
      membership: v.literal("leave"),
      assignee: v.optional(assignee()),
      trigger: v.optional(trigger()),
    }),
    v.strictObject({ membership: v.literal("invite"), inviteeId: str() }),
  ]),
  "s.support.close": v.pipe(object(), v.strictObject({ trigger: v.optional(trigger()) })),
  "s.support.delegate": v.strictObject({
    type: v.picklist(["Agent", "CRM"]),
    agentId: v.optional(v.nullable(v.pipe(str(), v.minLength(1)))),
  }),
  "s.support.request": v.strictObject({ liveChatId: str(), preconditions: v.optional(jsonObject) }),
  "s.support.request.rejected": v.strictObject({
    reason: v.picklist(["NO_OPERATOR_AVAILABLE", "OUTSIDE_BUSINESS_HOURS", "SERVER_ERROR"]),
  }),
  "s.timer": v.variant("status", [
    v.strictObject({ status: v.literal("RUNNING"), expires: dateTime() }),
    v.strictObject({ status: v.picklist(["CANCELLED", "EXPIRED"]) }),
  ]),
}))();
