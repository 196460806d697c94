import type { EventsApiErrorObject } from "./errors.js";

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
      kept[key] = cutString(value, MAX_API_ERROR_STRING);
    }
  }
  return kept;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The bounded error objects of a response's `errors` member (the value `JSON.parse` gave): the
 * first {@link MAX_API_ERRORS} objects, each reduced to its string members. Anything else is `[]`.
 */
export function boundedApiErrors(errors: unknown): EventsApiErrorObject[] {
  if (!Array.isArray(errors)) return [];
  const kept: EventsApiErrorObject[] = [];
  for (const item of errors) {
    if (kept.length === MAX_API_ERRORS) break;
    if (!isRecord(item)) continue;
    const members: { -readonly [K in keyof EventsApiErrorObject]: EventsApiErrorObject[K] } =
      stringMembers(item, ["id", "status", "code", "title", "detail"]) ?? {};
    const source = Object.hasOwn(item, "source") ? item.source : undefined;
    if (isRecord(source)) {
      const kept = stringMembers(source, ["pointer", "parameter", "header"]);
      if (kept) members.source = kept;
    }
    kept.push(members);
  }
  return kept;
}
