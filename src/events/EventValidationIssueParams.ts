/**
 * What an issue says a value should have been, in its parameters (`expected`): a JSON type
 * (`"number"` is a finite number), `"json"` for any JSON value, or, in a JSON:API document, `"link"`
 * (a URL string or an object with `href`), `"url"`, `"resource_identifier"` (`{ type, id }`) and
 * `"relationship"` (an object with `data`, `links` or `meta`). A schema you compose yourself and
 * validate with `safeParseContent` may give other names, Zod's (`"bigint"`, `"date"`…).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventValidationExpected } from "messaging-events/events";
 *
 * const names: Partial<Record<EventValidationExpected, string>> = { string: "une chaîne", number: "un nombre" };
 * const inFrench = (expected: EventValidationExpected): string => names[expected] ?? expected;
 * console.log(inFrench("string")); // "une chaîne"
 * ```
 */
export type EventValidationExpected =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "null"
  | "object"
  | "array"
  | "json"
  | "link"
  | "url"
  | "resource_identifier"
  | "relationship"
  | (string & {});

/**
 * What an issue says was found instead (`received`): a JSON type; `"undefined"`, `"NaN"`,
 * `"Infinity"`, `"-Infinity"`, `"bigint"`, `"symbol"` or `"function"`; `"circular"` for a value that
 * contains itself; or, for an object that is not a plain object, its class name (`"Date"`, `"Map"`,
 * `"Uint8Array"`: an identifier of at most 40 characters, `"object"` otherwise).
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeParseEventContent, type EventValidationReceived } from "messaging-events/events";
 *
 * const result = safeParseEventContent("s.room.pin", { value: "yes" });
 * const issue = result.error?.issues[0];
 * if (issue?.code === "invalid_type") {
 *   const received: EventValidationReceived = issue.params.received;
 *   console.log(received); // "string"
 * }
 * ```
 */
export type EventValidationReceived =
  | "string"
  | "number"
  | "boolean"
  | "null"
  | "undefined"
  | "object"
  | "array"
  | "NaN"
  | "Infinity"
  | "-Infinity"
  | "bigint"
  | "symbol"
  | "function"
  | "circular"
  | (string & {});

/**
 * A value an enumeration allows, as an issue lists them (`values`): `"OFFLINE"`, `2`.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventValidationLiteral } from "messaging-events/events";
 *
 * const show = (value: EventValidationLiteral): string => (typeof value === "string" ? `« ${value} »` : String(value));
 * console.log(show("AWAY")); // "« AWAY »"
 * ```
 */
export type EventValidationLiteral = string | number | boolean | null;

/**
 * The parameters of each issue code: what its English `message` was made from, so that an
 * application can write the message in its own words and language. `issue.params` has the type of
 * its code's entry once `issue.code` is checked. Text taken from the input (`value`, `key`, `type`,
 * `reason`) is cut to 40 characters and has every character that could forge a log line escaped, as
 * in the message.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { type EventValidationIssueParams, safeParseEventContent } from "messaging-events/events";
 *
 * const tooLong = (p: EventValidationIssueParams["too_long"]) =>
 *   `höchstens ${p.maximum} Zeichen${p.length === undefined ? "" : `, nicht ${p.length}`}`;
 * const result = safeParseEventContent("s.message.text", { body: "Hi", format: "x".repeat(101) });
 * const issue = result.error?.issues[0];
 * if (issue?.code === "too_long") console.log(tooLong(issue.params)); // "höchstens 100 Zeichen, nicht 101"
 * ```
 */
export interface EventValidationIssueParams {
  /**
   * A required value is missing: what it should have been (`expected`), and for an enumeration the
   * values it allows (`values`). `expected: ["relationship"]` is a JSON:API relationship with none
   * of `data`, `links` and `meta`.
   */
  readonly required: {
    readonly expected: readonly EventValidationExpected[];
    readonly values?: readonly EventValidationLiteral[];
  };
  /** A value of the wrong type: what it should have been, and what it is. */
  readonly invalid_type: {
    readonly expected: EventValidationExpected;
    readonly received: EventValidationReceived;
  };
  /**
   * A value that breaks a rule, told by `rule`: `"one_of"`, not one of `values` (`received` and, when
   * it is a string, a finite number or a boolean, the `value` itself); `"not_blank"`, a string of
   * white space only; `"idempotency_key"`, not 1 to 255 visible ASCII characters other than the
   * comma; `"field_name"`, a name JSON:API does not allow for a member; `"other"`, a rule of a schema
   * you composed yourself that the library has no words for.
   */
  readonly invalid_value:
    | {
        readonly rule: "one_of";
        readonly values: readonly EventValidationLiteral[];
        readonly received: EventValidationReceived;
        readonly value?: string | number | boolean;
      }
    | { readonly rule: "not_blank" }
    | {
        readonly rule: "idempotency_key";
        readonly received: EventValidationReceived;
        readonly value?: string | number | boolean;
      }
    | { readonly rule: "field_name" }
    | { readonly rule: "other" };
  /**
   * A string not in its `format` (`"date-time"`: RFC 3339 with an offset), with what was found (the
   * `value`, when it is a string).
   */
  readonly invalid_format: {
    readonly format: "date-time" | (string & {});
    readonly received: EventValidationReceived;
    readonly value?: string;
  };
  /** A string longer than `maximum` code points; `length` is its own. */
  readonly too_long: { readonly maximum: number; readonly length?: number };
  /** A string shorter than `minimum` code points (1: an empty string). */
  readonly too_short: { readonly minimum: number };
  /** An array of more than `maximum` entries (exactly `maximum` when `exact`); `length` is its own. */
  readonly too_many_items: { readonly maximum: number; readonly exact: boolean; readonly length?: number };
  /**
   * An array of fewer than `minimum` entries (exactly `minimum` when `exact`); `length` is its own,
   * when the value is an array at all.
   */
  readonly too_few_items: { readonly minimum: number; readonly exact: boolean; readonly length?: number };
  /** A member the object does not allow: its name. */
  readonly unknown_property: { readonly key: string };
  /** A value JSON cannot carry: what it is. */
  readonly not_json: { readonly received: EventValidationReceived };
  /** Not exactly one of `keys` is present: `present` of them are (0: neither). */
  readonly exactly_one_of: { readonly keys: readonly string[]; readonly present: number };
  /** The two options of a boolean action have the same value: the one that is `missing`. */
  readonly boolean_options: { readonly missing: "true" | "false" };
  /** A value that matches none of the alternatives of a union, whose kinds are `expected`. */
  readonly no_matching_variant: {
    readonly expected: readonly EventValidationExpected[];
    readonly received: EventValidationReceived;
  };
  /**
   * The event type is not one of the 32: what was found (`received`, `"undefined"` when it is
   * missing), the `type` itself when it is a string, and the known type it most likely meant
   * (`suggestion`), if any.
   */
  readonly unknown_event_type: {
    readonly received: EventValidationReceived;
    readonly type?: string;
    readonly suggestion?: string;
  };
  /** Reading the value threw (a getter, a proxy): the thrown message. */
  readonly unreadable: { readonly reason: string };
  /** The value nests deeper than `maximum` levels (`maxDepth`). */
  readonly too_deep: { readonly maximum: number };
  /** The value holds more than `maximum` values (`maxNodes`). */
  readonly too_many_nodes: { readonly maximum: number };
}
