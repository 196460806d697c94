/**
 * fast-check arbitraries for valid content of every event type, written from the spec (not from
 * the schemas), so that "generated valid content is accepted" tests the schemas against the spec.
 */
import fc from "fast-check";
import type { EventType } from "../../src/events/index.js";

/** Any string of Unicode code points (astral ones included), up to `maxLength` code points. */
export const text = (maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: "binary", maxLength });
const nonEmptyText = fc.string({ unit: "binary", minLength: 1, maxLength: 24 });

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;
const pad = (value: number, width = 2): string => String(value).padStart(width, "0");

/** RFC 3339 date-times with an offset, on real calendar days. */
export const dateTime: fc.Arbitrary<string> = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    dayIndex: fc.nat(),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
    offset: fc.oneof(
      fc.constant("Z"),
      fc
        .record({
          sign: fc.constantFrom("+", "-"),
          hours: fc.integer({ min: 0, max: 23 }),
          minutes: fc.integer({ min: 0, max: 59 }),
        })
        .map(({ sign, hours, minutes }) => `${sign}${pad(hours)}:${pad(minutes)}`),
    ),
  })
  .map(({ year, month, dayIndex, hour, minute, second, fraction, offset }) => {
    const day = (dayIndex % daysIn(year, month)) + 1;
    const frac = fraction === undefined ? "" : `.${fraction}`;
    return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${frac}${offset}`;
  });

/** A JSON object with JSON values. */
export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 4, noNullPrototype: true },
);

/** Members that objects with "additional properties allowed" may carry; the prefix avoids the spec's names. */
const extraMembers: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.string({ maxLength: 6 }).map((key) => `x-${key}`),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3, noNullPrototype: true },
);

const withExtras = (arbitrary: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(arbitrary, extraMembers).map(([content, extras]) => ({ ...extras, ...content }));

const option = fc.record(
  { value: text(), label: text(), url: fc.oneof(text(), fc.constant(null)) },
  { requiredKeys: ["value", "label"] },
);

const actionCommon = {
  body: text(),
  writeable: fc.array(text(), { minLength: 1, maxLength: 3 }),
  action: text(),
  label: text(),
  format: fc.constantFrom("text/plain", "text/html", null),
  repeatable: fc.boolean(),
  required: fc.boolean(),
};
const actionRequired = ["type", "body", "writeable"] as const;

const action = fc.oneof(
  fc.record(
    { ...actionCommon, type: fc.constantFrom("text", "textarea", "email") },
    { requiredKeys: [...actionRequired] },
  ),
  fc.record(
    {
      ...actionCommon,
      type: fc.constant("date"),
      min: dateTime,
      max: dateTime,
      center: fc.oneof(dateTime, fc.constant(null)),
    },
    { requiredKeys: [...actionRequired, "min", "max"] },
  ),
  fc.record(
    {
      ...actionCommon,
      type: fc.constant("boolean"),
      options: fc.tuple(text(), text(), fc.boolean()).map(([yes, no, trueFirst]) =>
        trueFirst
          ? [
              { label: yes, value: "true" },
              { label: no, value: "false" },
            ]
          : [
              { label: no, value: "false" },
              { label: yes, value: "true" },
            ],
      ),
    },
    { requiredKeys: [...actionRequired, "options"] },
  ),
  fc.record(
    {
      ...actionCommon,
      type: fc.constantFrom("button", "link"),
      options: fc.array(option, { minLength: 1, maxLength: 4 }),
    },
    { requiredKeys: [...actionRequired, "options"] },
  ),
  fc.record(
    {
      ...actionCommon,
      type: fc.constant("select"),
      multiple: fc.boolean(),
      options: fc.array(option, { minLength: 1, maxLength: 4 }),
    },
    { requiredKeys: [...actionRequired, "multiple", "options"] },
  ),
);

const assignee = fc.constantFrom("Agent", "Bot");
const trigger = fc.constantFrom("Auto", "Manual");
// A new object each time: a test that changes the value it was given must not change the next one's.
const emptyObject = fc.constant(null).map(() => ({}));
const booleanValue = fc.record({ value: fc.boolean() });

/** Valid content for each event type. */
export const validContent: { readonly [T in EventType]: fc.Arbitrary<unknown> } = {
  "s.change": fc.record({ id: text(), type: text(), relationship: text() }, { requiredKeys: ["id", "type"] }),
  "s.presence": fc.record({ status: fc.constantFrom("OFFLINE", "INVISIBLE", "INACTIVE", "AWAY", "ONLINE") }),
  "s.delete": fc.jsonValue({ maxDepth: 3 }),
  "s.form.submission": fc.jsonValue({ maxDepth: 3 }),
  "s.support.open": fc.jsonValue({ maxDepth: 3 }),
  "s.receipt": emptyObject,
  "s.room.close": emptyObject,
  "s.room.typing": emptyObject,
  "s.message.preview.track": emptyObject,
  "s.support.inactive": emptyObject,
  "s.form": fc.record({ formId: nonEmptyText, inline: fc.boolean() }, { requiredKeys: ["formId"] }),
  "s.invitation": fc.record({ roomId: text(), inviterId: text() }),
  "s.mention": fc.record({ eventId: text() }),
  "s.message.text": withExtras(
    fc.record({ body: text(200), format: text(100), annotations: jsonObject }, { requiredKeys: ["body"] }),
  ),
  "s.message.text.translation": fc.record(
    { body: text(200), format: text(100), sourceLanguage: text(2), targetLanguage: text(2) },
    { requiredKeys: ["body", "sourceLanguage", "targetLanguage"] },
  ),
  "s.message.media": withExtras(
    fc.oneof(
      fc.record(
        { label: text(), mediaId: text(), annotations: jsonObject },
        { requiredKeys: ["label", "mediaId"] },
      ),
      fc.record(
        { body: text(), mediaId: text(), annotations: jsonObject },
        { requiredKeys: ["body", "mediaId"] },
      ),
    ),
  ),
  "s.message.edit": fc.record(
    {
      body: text(),
      editedType: fc.constantFrom("s.message.media", "s.message.text"),
      annotations: jsonObject,
    },
    { requiredKeys: ["body"] },
  ),
  "s.message.preview": withExtras(
    fc.record(
      { url: text(), title: text(), author: text(), description: text(), image: text(), fileId: text() },
      { requiredKeys: ["url"] },
    ),
  ),
  "s.message.action": action,
  "s.message.action.invocation": fc.record(
    {
      value: fc.oneof(
        text(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.array(text(), { maxLength: 4 }),
      ),
      label: fc.oneof(text(), fc.constant(null)),
    },
    { requiredKeys: ["value"] },
  ),
  "s.message.action.invocation.validation": fc.record(
    { result: fc.constantFrom("SUCCESS", "FAILURE"), reason: text() },
    { requiredKeys: ["result"] },
  ),
  "s.room.blocked": booleanValue,
  "s.room.pin": booleanValue,
  "s.room.setting": booleanValue,
  "s.room.user.setting": booleanValue,
  "s.room.create": fc.record({ creatorId: text() }),
  "s.room.membership": fc.oneof(
    fc.record(
      { membership: fc.constant("join"), initiatorId: text(), sticky: fc.boolean(), assignee, trigger },
      { requiredKeys: ["membership"] },
    ),
    fc.record({ membership: fc.constant("leave"), assignee, trigger }, { requiredKeys: ["membership"] }),
    fc.record({ membership: fc.constant("invite"), inviteeId: text() }),
  ),
  "s.support.close": fc.record({ trigger }, { requiredKeys: [] }),
  "s.support.delegate": fc.record(
    { type: fc.constantFrom("Agent", "CRM"), agentId: fc.oneof(nonEmptyText, fc.constant(null)) },
    { requiredKeys: ["type"] },
  ),
  "s.support.request": fc.record(
    { liveChatId: text(), preconditions: jsonObject },
    { requiredKeys: ["liveChatId"] },
  ),
  "s.support.request.rejected": fc.record({
    reason: fc.constantFrom("NO_OPERATOR_AVAILABLE", "OUTSIDE_BUSINESS_HOURS", "SERVER_ERROR"),
  }),
  "s.timer": fc.oneof(
    fc.record({ status: fc.constant("RUNNING"), expires: dateTime }),
    fc.record({ status: fc.constantFrom("CANCELLED", "EXPIRED") }),
  ),
};
