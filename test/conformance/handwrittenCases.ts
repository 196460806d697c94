/** The rules a field table cannot say: unions, the media rule, the boolean options, date-times, JSON values. */
import { type ConformanceCase, invalid, valid } from "./conformanceCase.js";
import { anyJsonTypes, unionTags } from "./specTables.js";

const action = { body: "Pick one", writeable: ["customer"] };
const booleanAction = (options: unknown) => ({ ...action, type: "boolean", options });
const yes = { label: "Yes", value: "true" };
const no = { label: "No", value: "false" };

function unionCases(): ConformanceCase[] {
  return unionTags.flatMap(({ type, key, values }) => [
    invalid(type, `${key} missing`, {}, "required", `/content/${key}`),
    invalid(type, `${key} not a known variant`, { [key]: "other" }, "invalid_value", `/content/${key}`),
    invalid(type, `${key} of the wrong type`, { [key]: 5 }, "invalid_value", `/content/${key}`),
    invalid(
      type,
      `${key} in the wrong case`,
      { [key]: values[0]!.toUpperCase() === values[0] ? values[0]!.toLowerCase() : values[0]!.toUpperCase() },
      "invalid_value",
      `/content/${key}`,
    ),
  ]);
}

function crossVariantCases(): ConformanceCase[] {
  return [
    invalid(
      "s.room.membership",
      "join with inviteeId",
      { membership: "join", inviteeId: "u" },
      "unknown_property",
      "/content/inviteeId",
      "no-additional-properties",
    ),
    invalid(
      "s.room.membership",
      "leave with initiatorId",
      { membership: "leave", initiatorId: "u" },
      "unknown_property",
      "/content/initiatorId",
      "no-additional-properties",
    ),
    invalid(
      "s.room.membership",
      "leave with sticky",
      { membership: "leave", sticky: true },
      "unknown_property",
      "/content/sticky",
      "no-additional-properties",
    ),
    invalid(
      "s.room.membership",
      "invite with assignee",
      { membership: "invite", inviteeId: "u", assignee: "Bot" },
      "unknown_property",
      "/content/assignee",
      "no-additional-properties",
    ),
    valid("s.room.membership", "join with nothing else", { membership: "join" }),
    invalid(
      "s.room.membership",
      "leave with inviteeId",
      { membership: "leave", inviteeId: "u" },
      "unknown_property",
      "/content/inviteeId",
      "no-additional-properties",
    ),
    invalid(
      "s.room.membership",
      "invite with trigger",
      { membership: "invite", inviteeId: "u", trigger: "Auto" },
      "unknown_property",
      "/content/trigger",
      "no-additional-properties",
    ),
    invalid(
      "s.timer",
      "CANCELLED with expires",
      { status: "CANCELLED", expires: "2026-11-22T18:00:00Z" },
      "unknown_property",
      "/content/expires",
    ),
    invalid(
      "s.timer",
      "EXPIRED with expires",
      { status: "EXPIRED", expires: "2026-11-22T18:00:00Z" },
      "unknown_property",
      "/content/expires",
    ),
    invalid(
      "s.message.action",
      "text with options",
      { ...action, type: "text", options: [{ value: "a", label: "A" }] },
      "unknown_property",
      "/content/options",
      "no-additional-properties",
    ),
    invalid(
      "s.message.action",
      "date with options",
      { ...action, type: "date", min: "2026-01-01T00:00:00Z", max: "2026-12-31T00:00:00Z", options: [] },
      "unknown_property",
      "/content/options",
      "no-additional-properties",
    ),
    invalid(
      "s.message.action",
      "button with multiple",
      { ...action, type: "button", multiple: true, options: [{ value: "a", label: "A" }] },
      "unknown_property",
      "/content/multiple",
      "no-additional-properties",
    ),
    invalid(
      "s.message.action",
      "select with boolean options but no multiple",
      { ...action, type: "select", options: [yes, no] },
      "required",
      "/content/multiple",
    ),
    invalid(
      "s.message.action",
      "email with min",
      { ...action, type: "email", min: "2026-01-01T00:00:00Z" },
      "unknown_property",
      "/content/min",
      "no-additional-properties",
    ),
  ];
}

function mediaRuleCases(): ConformanceCase[] {
  const type = "s.message.media";
  return [
    valid(type, "mediaId and label", { mediaId: "m-1", label: "cat.jpg" }, "media-messages"),
    valid(type, "mediaId and body", { mediaId: "m-1", body: "A cat" }, "media-messages"),
    valid(type, "mediaId and an empty label", { mediaId: "m-1", label: "" }, "media-messages"),
    invalid(
      type,
      "an empty label and an empty body",
      { mediaId: "m-1", label: "", body: "" },
      "exactly_one_of",
      "/content",
      "media-messages",
    ),
    invalid(
      type,
      "both, with an additional property",
      { mediaId: "m-1", label: "a", body: "b", size: 3 },
      "exactly_one_of",
      "/content",
      "media-messages",
    ),
    invalid(
      type,
      "both label and body",
      { mediaId: "m-1", label: "cat.jpg", body: "A cat" },
      "exactly_one_of",
      "/content",
      "media-messages",
    ),
    invalid(
      type,
      "neither label nor body",
      { mediaId: "m-1" },
      "exactly_one_of",
      "/content",
      "media-messages",
    ),
    invalid(
      type,
      "neither, with annotations",
      { mediaId: "m-1", annotations: {} },
      "exactly_one_of",
      "/content",
      "media-messages",
    ),
    invalid(
      type,
      "label but no mediaId",
      { label: "cat.jpg" },
      "required",
      "/content/mediaId",
      "media-messages",
    ),
    invalid(
      type,
      "label of the wrong type",
      { mediaId: "m-1", label: 7 },
      "invalid_type",
      "/content/label",
      "media-messages",
    ),
    invalid(
      type,
      "body null",
      { mediaId: "m-1", body: null },
      "invalid_type",
      "/content/body",
      "media-messages",
    ),
    invalid(
      type,
      "label null beside a body",
      { mediaId: "m-1", label: null, body: "A cat" },
      "invalid_type",
      "/content/label",
      "media-messages",
    ),
  ];
}

function booleanOptionCases(): ConformanceCase[] {
  const type = "s.message.action";
  return [
    valid(type, "boolean: true then false", booleanAction([yes, no]), "boolean-actions"),
    valid(type, "boolean: false then true", booleanAction([no, yes]), "boolean-actions"),
    invalid(
      type,
      "boolean: two true",
      booleanAction([yes, { label: "Sure", value: "true" }]),
      "boolean_options",
      "/content/options/1/value",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: two false",
      booleanAction([no, { label: "Nope", value: "false" }]),
      "boolean_options",
      "/content/options/1/value",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: three entries",
      booleanAction([yes, no, { label: "Maybe", value: "true" }]),
      "too_many_items",
      "/content/options",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: one entry",
      booleanAction([yes]),
      "too_few_items",
      "/content/options",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: no entries",
      booleanAction([]),
      "too_few_items",
      "/content/options",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: value yes",
      booleanAction([{ label: "Yes", value: "yes" }, no]),
      "invalid_value",
      "/content/options/0/value",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: value a real boolean",
      booleanAction([{ label: "Yes", value: true }, no]),
      "invalid_value",
      "/content/options/0/value",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: entry without label",
      booleanAction([yes, { value: "false" }]),
      "required",
      "/content/options/1/label",
      "boolean-actions",
    ),
    invalid(
      type,
      "boolean: entry with url",
      booleanAction([{ ...yes, url: null }, no]),
      "unknown_property",
      "/content/options/0/url",
      "no-additional-properties",
    ),
  ];
}

function invocationCases(): ConformanceCase[] {
  const type = "s.message.action.invocation";
  return [
    valid(type, "value a string", { value: "red" }, "invocation-values"),
    valid(type, "value an empty string", { value: "" }, "invocation-values"),
    valid(type, "value an integer", { value: 42 }, "invocation-values"),
    valid(type, "value a fraction", { value: -3.25 }, "invocation-values"),
    valid(type, "value zero", { value: 0 }, "invocation-values"),
    valid(type, "value a large number", { value: 1e300 }, "invocation-values"),
    valid(type, "value an empty array", { value: [] }, "invocation-values"),
    valid(type, "value an array of strings", { value: ["red", "blue"] }, "invocation-values"),
    valid(type, "label a string", { value: "red", label: "Red" }),
    valid(type, "label null", { value: "red", label: null }),
    invalid(type, "value missing", { label: "Red" }, "required", "/content/value", "invocation-values"),
    invalid(
      type,
      "value a boolean",
      { value: true },
      "no_matching_variant",
      "/content/value",
      "invocation-values",
    ),
    invalid(
      type,
      "value null",
      { value: null },
      "no_matching_variant",
      "/content/value",
      "invocation-values",
    ),
    invalid(
      type,
      "value an object",
      { value: { red: true } },
      "no_matching_variant",
      "/content/value",
      "invocation-values",
    ),
    invalid(
      type,
      "value an array with a number",
      { value: ["red", 1] },
      "invalid_type",
      "/content/value/1",
      "invocation-values",
    ),
    invalid(
      type,
      "value an array of arrays",
      { value: [["red"]] },
      "invalid_type",
      "/content/value/0",
      "invocation-values",
    ),
    invalid(type, "label a number", { value: "red", label: 1 }, "invalid_type", "/content/label"),
    invalid(
      type,
      "additional property",
      { value: "red", extra: true },
      "unknown_property",
      "/content/extra",
      "no-additional-properties",
    ),
    invalid(type, "content an array", [], "invalid_type", "/content"),
  ];
}

function anyJsonCases(): ConformanceCase[] {
  const values: [string, unknown][] = [
    ["an object", { messageId: "01JD8X", reason: "spam" }],
    ["an empty object", {}],
    ["an array", [1, "two", null, { three: [3] }]],
    ["a string", "hello"],
    ["an empty string", ""],
    ["a number", 12.5],
    ["true", true],
    ["false", false],
    ["null", null],
  ];
  return anyJsonTypes.flatMap((type) =>
    values.map(([name, content]) => valid(type, `any JSON: ${name}`, content, "types-without-constraints")),
  );
}

function emptyObjectCases(): ConformanceCase[] {
  return (
    ["s.receipt", "s.room.close", "s.room.typing", "s.message.preview.track", "s.support.inactive"] as const
  ).flatMap((type) => [
    valid(type, "exactly {}", {}, "types-without-constraints"),
    invalid(
      type,
      "a property",
      { read: true },
      "unknown_property",
      "/content/read",
      "types-without-constraints",
    ),
    invalid(type, "an empty array", [], "invalid_type", "/content", "types-without-constraints"),
    invalid(type, "a string", "", "invalid_type", "/content", "types-without-constraints"),
  ]);
}

function annotationCases(): ConformanceCase[] {
  const type = "s.message.text";
  return [
    valid(type, "annotations empty object", { body: "x", annotations: {} }, "annotations-and-preconditions"),
    valid(
      type,
      "annotations deep object",
      { body: "x", annotations: { a: { b: [1, { c: null }] } } },
      "annotations-and-preconditions",
    ),
    invalid(
      type,
      "annotations a string",
      { body: "x", annotations: "bold" },
      "invalid_type",
      "/content/annotations",
      "annotations-and-preconditions",
    ),
    invalid(
      type,
      "annotations a number",
      { body: "x", annotations: 1 },
      "invalid_type",
      "/content/annotations",
      "annotations-and-preconditions",
    ),
    valid(
      "s.support.request",
      "preconditions deep object",
      { liveChatId: "c", preconditions: { language: "en", skills: ["billing"] } },
      "annotations-and-preconditions",
    ),
    invalid(
      "s.support.request",
      "preconditions an array",
      { liveChatId: "c", preconditions: [] },
      "invalid_type",
      "/content/preconditions",
      "annotations-and-preconditions",
    ),
    invalid(
      "s.message.edit",
      "annotations explicitly null",
      { body: "x", annotations: null },
      "invalid_type",
      "/content/annotations",
      "annotations-and-preconditions",
    ),
  ];
}

function codePointCases(): ConformanceCase[] {
  const type = "s.message.text";
  return [
    valid(
      type,
      "format: 60 emoji (120 UTF-16 units)",
      { body: "x", format: "😀".repeat(60) },
      "lengths-count-code-points",
    ),
    valid(
      type,
      "format: 99 ascii and an emoji",
      { body: "x", format: `${"a".repeat(99)}😀` },
      "lengths-count-code-points",
    ),
    invalid(
      type,
      "format: 100 ascii and an emoji",
      { body: "x", format: `${"a".repeat(100)}😀` },
      "too_long",
      "/content/format",
      "lengths-count-code-points",
    ),
    valid(
      type,
      "format: 50 decomposed accents (100 code points)",
      { body: "x", format: "e\u0301".repeat(50) },
      "lengths-count-code-points",
    ),
    invalid(
      type,
      "format: 51 decomposed accents (102 code points)",
      { body: "x", format: "e\u0301".repeat(51) },
      "too_long",
      "/content/format",
      "lengths-count-code-points",
    ),
    valid(
      "s.message.text.translation",
      "languages: two emoji flags' letters",
      { body: "x", sourceLanguage: "🇩🇪", targetLanguage: "en" },
      "lengths-count-code-points",
    ),
    invalid(
      "s.message.text.translation",
      "languages: three letters",
      { body: "x", sourceLanguage: "deu", targetLanguage: "en" },
      "too_long",
      "/content/sourceLanguage",
      "lengths-count-code-points",
    ),
    valid("s.message.text.translation", "languages: empty", {
      body: "x",
      sourceLanguage: "",
      targetLanguage: "",
    }),
  ];
}

/** Date-times checked on s.timer's `expires`. */
export const dateTimeRows: readonly [string, boolean][] = [
  ["2026-11-22T18:00:00Z", true],
  ["2026-11-22T18:00:00.5Z", true],
  ["2026-11-22T18:00:00.123456789Z", true],
  ["2026-11-22T18:00:00+05:30", true],
  ["2026-11-22T18:00:00-12:00", true],
  ["2026-11-22T18:00:00-00:00", true],
  ["2026-12-31T23:59:59+23:59", true],
  ["2024-02-29T00:00:00Z", true],
  ["2000-02-29T00:00:00Z", true],
  ["0000-01-01T00:00:00Z", true],
  ["2026-02-29T00:00:00Z", false],
  ["1900-02-29T00:00:00Z", false],
  ["2026-02-30T00:00:00Z", false],
  ["2026-04-31T00:00:00Z", false],
  ["2026-11-31T00:00:00Z", false],
  ["2026-13-01T00:00:00Z", false],
  ["2026-00-10T00:00:00Z", false],
  ["2026-11-00T00:00:00Z", false],
  ["2026-11-22T24:00:00Z", false],
  ["2026-11-22T18:60:00Z", false],
  ["2026-11-22T23:59:60Z", false],
  ["2026-11-22T18:00Z", false],
  ["2026-11-22T18:00:00", false],
  ["2026-11-22", false],
  ["2026-11-22 18:00:00Z", false],
  ["2026-11-22t18:00:00z", false],
  ["2026-11-22T18:00:00+0530", false],
  ["2026-11-22T18:00:00+05", false],
  ["2026-11-22T18:00:00+24:00", false],
  ["2026-11-22T18:00:00.Z", false],
  ["+002026-11-22T18:00:00Z", false],
  ["26-11-22T18:00:00Z", false],
  [" 2026-11-22T18:00:00Z", false],
  ["2026-11-22T18:00:00Z\n", false],
  ["", false],
];

function dateTimeCases(): ConformanceCase[] {
  return dateTimeRows.map(([value, ok]) =>
    ok
      ? valid(
          "s.timer",
          `expires ${JSON.stringify(value)}`,
          { status: "RUNNING", expires: value },
          "date-times",
        )
      : invalid(
          "s.timer",
          `expires ${JSON.stringify(value)}`,
          { status: "RUNNING", expires: value },
          "invalid_format",
          "/content/expires",
          "date-times",
        ),
  );
}

function delegateCases(): ConformanceCase[] {
  return [
    valid("s.room.pin", "value false", { value: false }),
    valid("s.room.blocked", "value false", { value: false }),
    valid("s.message.action", "select with multiple false", {
      ...action,
      type: "select",
      multiple: false,
      options: [{ value: "a", label: "A" }],
    }),
    valid("s.form", "inline false", { formId: "f", inline: false }),
    valid("s.support.delegate", "CRM without agent", { type: "CRM" }),
    valid("s.support.delegate", "Agent with agentId null", { type: "Agent", agentId: null }),
    invalid(
      "s.support.delegate",
      "Agent with an empty agentId",
      { type: "Agent", agentId: "" },
      "too_short",
      "/content/agentId",
    ),
  ];
}

/** Every handwritten row. */
export function handwrittenCases(): ConformanceCase[] {
  return [
    ...unionCases(),
    ...crossVariantCases(),
    ...mediaRuleCases(),
    ...booleanOptionCases(),
    ...invocationCases(),
    ...anyJsonCases(),
    ...emptyObjectCases(),
    ...annotationCases(),
    ...codePointCases(),
    ...dateTimeCases(),
    ...delegateCases(),
  ];
}
