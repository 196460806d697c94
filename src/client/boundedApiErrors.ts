import type { EventsApiErrorObject } from "./EventsApiErrorObject.js";
import { keptString } from "./keptString.js";

/** How many error objects of a response are kept. */
export const MAX_API_ERRORS = 100;
/** How many characters of each string member are kept. */
export const MAX_API_ERROR_STRING = 1_000;

/** A string cut to `max` characters (an ellipsis marks the cut), never splitting a surrogate pair. */
export function cutString(value: string, max: number): string {
  if (value.length <= max) return value;
  const code = value.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}

function stringMembers<K extends string>(
  from: Record<string, unknown>,
  keys: readonly K[],
): Partial<Record<K, string>> | undefined {
  let kept: Partial<Record<K, string>> | undefined;
  for (const key of keys) {
    const value = Object.hasOwn(from, key) ? from[key] : undefined;
    if (typeof value === "string") {
      kept ??= {};
      kept[key] = keptString(value, MAX_API_ERROR_STRING);
    }
  }
  return kept;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The bounded error objects of a response's `errors` member (the value `JSON.parse` gave): the
 * first {@link MAX_API_ERRORS} objects, each reduced to its string members, escaped and cut by
 * {@link keptString}. Anything else is `[]`; never throws (a proxy whose traps throw gives what
 * was read before the trap).
 */
export function boundedApiErrors(errors: unknown): EventsApiErrorObject[] {
  const kept: EventsApiErrorObject[] = [];
  try {
    if (!Array.isArray(errors)) return kept;
    for (let index = 0; index < errors.length && kept.length < MAX_API_ERRORS; index++) {
      const item: unknown = errors[index];
      if (!isRecord(item)) continue;
      const members: { -readonly [K in keyof EventsApiErrorObject]: EventsApiErrorObject[K] } =
        stringMembers(item, ["id", "status", "code", "title", "detail"]) ?? {};
      const source = Object.hasOwn(item, "source") ? item.source : undefined;
      if (isRecord(source)) {
        const where = stringMembers(source, ["pointer", "parameter", "header"]);
        if (where) members.source = where;
      }
      kept.push(members);
    }
  } catch {
    // A hostile value: keep what was read.
  }
  return kept;
}

/** The string members of the first error object that an error's message shows, as sent. */
export interface FirstApiError {
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
}

/**
 * The `code`, `title` and `detail` of the first error object of a response's `errors` member, as
 * sent (a message quotes them escaped), each `undefined` unless a string. `undefined` when there is
 * no error object; never throws.
 */
export function firstApiError(errors: unknown): FirstApiError | undefined {
  try {
    if (!Array.isArray(errors)) return undefined;
    for (let index = 0; index < errors.length; index++) {
      const item: unknown = errors[index];
      if (!isRecord(item)) continue;
      const read = (name: string): string | undefined => {
        const value = Object.hasOwn(item, name) ? item[name] : undefined;
        return typeof value === "string" ? value : undefined;
      };
      return { code: read("code"), title: read("title"), detail: read("detail") };
    }
  } catch {
    // A hostile value: nothing to quote.
  }
  return undefined;
}
