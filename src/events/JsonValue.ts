/**
 * A JSON value: what `JSON.parse` can return. It types the content of `s.delete`,
 * `s.form.submission` and `s.support.open`, whose schema the spec leaves empty.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { JsonValue } from "messaging-events/events";
 *
 * const content: JsonValue = { reason: "duplicate", ids: ["01JD8X", "01JD8Y"], undo: null };
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object: a plain object whose members are JSON values. It types `annotations` and
 * `preconditions`, whose shape the spec does not show.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { JsonObject } from "messaging-events/events";
 *
 * const annotations: JsonObject = { mentions: [{ userId: "user-7", offset: 0 }] };
 * ```
 */
export type JsonObject = { [key: string]: JsonValue };
