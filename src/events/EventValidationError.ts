import { quote, safeText } from "../internal/describe.js";
import type { EventValidationIssueParams } from "./EventValidationIssueParams.js";

/**
 * What went wrong with an event, as a stable code:
 *
 * - `ERR_UNKNOWN_EVENT_TYPE`: the type is not one of the 32 event types;
 * - `ERR_INVALID_EVENT_CONTENT`: the content does not match its type's schema;
 * - `ERR_INVALID_EVENT`: the event itself is not a `{ type, content }` object;
 * - `ERR_INVALID_WEBHOOK_PAYLOAD`: a webhook payload does not match the spec (section 6.2);
 * - `ERR_INVALID_EVENT_DOCUMENT`: a JSON:API document (request or response) is malformed;
 * - `ERR_INVALID_OPTIONS`: the options given to a `safe…` function are invalid (attribute names
 *   JSON:API forbids): the caller's code is wrong, not the input.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventValidationErrorCode } from "messaging-events/events";
 *
 * const code: EventValidationErrorCode = "ERR_UNKNOWN_EVENT_TYPE";
 * ```
 */
export type EventValidationErrorCode =
  | "ERR_UNKNOWN_EVENT_TYPE"
  | "ERR_INVALID_EVENT_CONTENT"
  | "ERR_INVALID_EVENT"
  | "ERR_INVALID_WEBHOOK_PAYLOAD"
  | "ERR_INVALID_EVENT_DOCUMENT"
  | "ERR_INVALID_OPTIONS";

/**
 * The kind of one problem, stable across releases:
 *
 * - `required`: a required member is missing;
 * - `invalid_type`: a value has the wrong JSON type;
 * - `invalid_value`: a value is not one of the allowed values (enums, variant tags);
 * - `invalid_format`: a string is not in the required format (date-time);
 * - `too_long` / `too_short`: a string has too many / too few characters (Unicode code points);
 * - `too_many_items` / `too_few_items`: an array has too many / too few entries;
 * - `unknown_property`: a member that the object does not allow (strict objects);
 * - `not_json`: a value that JSON cannot carry (`undefined`, `NaN`, a function, a `Date`, a cycle);
 * - `exactly_one_of`: the media rule: exactly one of `label` or `body`;
 * - `boolean_options`: the options of a `boolean` action need one `"true"` and one `"false"`;
 * - `no_matching_variant`: a value matches none of the alternatives of a union;
 * - `unknown_event_type`: the event type is not known;
 * - `unreadable`: reading the input threw (a throwing getter or proxy);
 * - `too_deep`: the value nests deeper than the limit (512 levels by default);
 * - `too_many_nodes`: the value holds more values than the limit (1,000,000 by default).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventValidationIssueCode } from "messaging-events/events";
 *
 * const code: EventValidationIssueCode = "too_long";
 * ```
 */
export type EventValidationIssueCode =
  | "required"
  | "invalid_type"
  | "invalid_value"
  | "invalid_format"
  | "too_long"
  | "too_short"
  | "too_many_items"
  | "too_few_items"
  | "unknown_property"
  | "not_json"
  | "exactly_one_of"
  | "boolean_options"
  | "no_matching_variant"
  | "unknown_event_type"
  | "unreadable"
  | "too_deep"
  | "too_many_nodes";

/**
 * One problem found in an event. `path` and `pointer` locate it from the root of the event
 * (`{ type, content }`), so a problem in the content starts with `content`; `message` says it in
 * English, and `params` holds what the message was made from, typed by `code` (see
 * {@link EventValidationIssueParams}), for an application that writes its own messages.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventValidationIssue } from "messaging-events/events";
 *
 * const issue: EventValidationIssue = {
 *   code: "too_long",
 *   path: ["content", "format"],
 *   pointer: "/content/format",
 *   message: "content.format must be at most 100 characters long, not 101",
 *   params: { maximum: 100, length: 101 },
 * };
 * if (issue.code === "too_long") console.log(issue.params.maximum); // 100
 * ```
 */
export type EventValidationIssue = {
  readonly [C in EventValidationIssueCode]: {
    /** The kind of problem. */
    readonly code: C;
    /** Where it is, from the root of the event: `["content", "options", 0, "value"]`. */
    readonly path: readonly (string | number)[];
    /** The same place as an RFC 6901 JSON pointer: `"/content/options/0/value"`. */
    readonly pointer: string;
    /** A sentence a person can act on: which field, what was expected, what was found. */
    readonly message: string;
    /** What the message was made from, by code: see {@link EventValidationIssueParams}. */
    readonly params: EventValidationIssueParams[C];
  };
}[EventValidationIssueCode];

const brand = Symbol.for("messaging-events.EventValidationError");

/**
 * Thrown by the `parse…` functions, and returned by the `safeParse…` ones, when an event or its
 * content is invalid. It carries a stable {@link EventValidationError.code}, the event type, and
 * the issues found, each with its path and JSON pointer: the first 100 (a limit you can change),
 * with the number of the others in {@link EventValidationError.omittedIssues}. Its message lists
 * the first ten, so it stays short whatever the input.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { EventValidationError, parseEventContent } from "messaging-events/events";
 *
 * try {
 *   parseEventContent("s.form", { formId: "" });
 * } catch (error) {
 *   if (error instanceof EventValidationError) {
 *     console.log(error.code); // "ERR_INVALID_EVENT_CONTENT"
 *     console.log(error.issues[0]?.pointer); // "/content/formId"
 *   }
 * }
 * ```
 */
export class EventValidationError extends Error {
  /** What went wrong, as a stable code. */
  declare readonly code: EventValidationErrorCode;
  /** The event type the content was checked against, or the unknown type that was given. */
  declare readonly eventType: string | undefined;
  /** The problems found, in order, up to the limit (100 by default). Never empty. */
  declare readonly issues: readonly EventValidationIssue[];
  /** How many further problems were found but not reported (0 unless the limit was reached). */
  declare readonly omittedIssues: number;

  /**
   * Creates the error. The library creates these; applications normally only read them.
   *
   * @param code - What went wrong.
   * @param eventType - The event type concerned, if known.
   * @param issues - The problems found; the message is built from them.
   * @param omittedIssues - How many further problems were found but not reported.
   */
  constructor(
    code: EventValidationErrorCode,
    eventType: string | undefined,
    issues: readonly EventValidationIssue[],
    omittedIssues = 0,
  ) {
    // An unknown type is the caller's text: short, and with nothing that could forge a log line.
    const type = typeof eventType === "string" ? safeType(eventType) : undefined;
    super(formatMessage(code, type, issues, omittedIssues));
    // `name` is the prototype's, as for the errors made without the constructor.
    this.code = code;
    this.eventType = type;
    this.issues = issues;
    this.omittedIssues = omittedIssues;
  }

  /**
   * The message, written when first read by an error made without the constructor (the
   * constructor's own message hides it).
   */
  override get message(): string {
    // The prototype itself has no issues; a frozen error is not written to, only read.
    if (!Array.isArray(this.issues)) return "";
    const message = formatMessage(this.code, this.eventType, this.issues, this.omittedIssues);
    if (Object.isExtensible(this)) own(this, "message", message);
    return message;
  }

  override set message(value: string) {
    own(this, "message", value);
  }

  /** The stack, for an error made without the constructor: its first line, as an engine would print it. */
  override get stack(): string {
    return `${this.name}: ${this.message}`;
  }

  override set stack(value: string) {
    own(this, "stack", value);
  }

  /** @internal Marks instances so {@link isEventValidationError} recognises them across realms and copies of the library. */
  get [brand](): true {
    return true;
  }
}

/** @internal An event type as an error shows it: a known-looking one as it is, anything else escaped and cut. */
export function safeType(type: string): string {
  return /^[\w.-]{1,40}$/.test(type) ? type : safeText(type);
}

// The errors of `safe…` results (see `validationError`) are made without the constructor, so
// without a trace: their stack is their first line, as an engine would print it, and their message
// is written when it is first read (a server answering 422 reads the issues, not the message).
/** Sets `key` on `target` as an engine sets an error's message: writable, not enumerable. */
function own<T extends object>(target: T, key: string, value: unknown): T {
  // A descriptor without a prototype: members added to Object.prototype cannot slip into it.
  return Object.defineProperty(target, key, {
    __proto__: null,
    value,
    writable: true,
    configurable: true,
  } as PropertyDescriptor);
}

own(EventValidationError.prototype, "name", "EventValidationError");

/**
 * @internal An `EventValidationError` made without a stack trace, for the result of a `safe…`
 * function: a failed validation is an answer, not a fault, and capturing a trace (microseconds)
 * would cost more than the validation. It has every property of one made by the constructor, is
 * an `instanceof` both `EventValidationError` and `Error`, and its `stack` is its first line. The
 * event type, when given, must be one of the 32 or have been through {@link safeType}.
 * {@link withStack} gives it a trace when it is thrown.
 */
export function validationError(
  code: EventValidationErrorCode,
  eventType: string | undefined,
  issues: readonly EventValidationIssue[],
  omittedIssues = 0,
): EventValidationError {
  // The type was validated (one of the 32), or is absent: nothing to escape.
  return new Unthrown(code, eventType, issues, omittedIssues);
}

type Fields = Pick<EventValidationError, "code" | "eventType" | "issues" | "omittedIssues">;

/**
 * Makes the errors of `validationError`: a plain constructor whose instances have the class's
 * prototype, which the engine builds about twice as fast as `Object.create` of that prototype
 * followed by the same four assignments.
 */
const Unthrown = /* @__PURE__ */ (() => {
  function Unthrown(
    this: { -readonly [K in keyof Fields]: Fields[K] },
    code: EventValidationErrorCode,
    eventType: string | undefined,
    issues: readonly EventValidationIssue[],
    omittedIssues: number,
  ): void {
    this.code = code;
    this.eventType = eventType;
    this.issues = issues;
    this.omittedIssues = omittedIssues;
  }
  Unthrown.prototype = EventValidationError.prototype;
  return Unthrown as unknown as new (
    code: EventValidationErrorCode,
    eventType: string | undefined,
    issues: readonly EventValidationIssue[],
    omittedIssues: number,
  ) => EventValidationError;
})();

/**
 * @internal `error` with a stack trace that starts at the caller of `from`, for a `parse…` function
 * to throw (where the engine can capture one on an existing object, as V8 and JavaScriptCore can).
 */
export function withStack(
  error: EventValidationError,
  from: (...args: never[]) => unknown,
): EventValidationError {
  const capture = (Error as { captureStackTrace?: (target: object, from?: unknown) => void })
    .captureStackTrace;
  if (typeof capture === "function" && !Object.hasOwn(error, "stack")) capture(error, from);
  return error;
}

function formatMessage(
  code: EventValidationErrorCode,
  eventType: string | undefined,
  issues: readonly EventValidationIssue[],
  omitted: number,
): string {
  // A type is shown as it is when it looks like one, quoted (and so escaped) otherwise.
  const type =
    eventType === undefined ? undefined : /^[\w.-]{1,40}$/.test(eventType) ? eventType : quote(eventType);
  const subject =
    code === "ERR_INVALID_EVENT_CONTENT"
      ? `Invalid ${type ?? "event"} content`
      : code === "ERR_INVALID_WEBHOOK_PAYLOAD"
        ? `Invalid webhook payload${type ? ` (${type})` : ""}`
        : code === "ERR_UNKNOWN_EVENT_TYPE"
          ? "Unknown event type"
          : code === "ERR_INVALID_EVENT_DOCUMENT"
            ? "Invalid JSON:API event document"
            : code === "ERR_INVALID_OPTIONS"
              ? "Invalid options"
              : "Invalid event";
  const total = issues.length + omitted;
  if (total === 1 && issues.length === 1) return `${subject}: ${issues[0]!.message}`;
  // The message lists ten issues at most; `issues` holds the rest.
  const listed = issues.slice(0, 10).map((issue) => `- ${issue.message}`);
  const rest = total - listed.length;
  if (rest > 0) listed.push(`- … and ${rest} more (see issues)`);
  return `${subject}: ${total} problems\n${listed.join("\n")}`;
}

/**
 * Tells whether a value is an {@link EventValidationError}, also when it comes from another realm
 * (an iframe, a worker) or another copy of this library, where `instanceof` fails.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isEventValidationError, parseEventContent } from "messaging-events/events";
 *
 * try {
 *   parseEventContent("s.presence", { status: "BUSY" });
 * } catch (error) {
 *   if (isEventValidationError(error)) console.log(error.issues.map((issue) => issue.message));
 * }
 * ```
 */
export function isEventValidationError(value: unknown): value is EventValidationError {
  if (typeof value !== "object" || value === null) return false;
  try {
    return value instanceof EventValidationError || (value as Record<symbol, unknown>)[brand] === true;
  } catch {
    // A proxy whose traps throw, or a revoked one: not an error of ours.
    return false;
  }
}
