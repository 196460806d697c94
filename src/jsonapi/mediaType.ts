/**
 * The JSON:API media type, used for request and response documents ([media type](https://github.com/messaging-events/messaging-events/blob/main/docs/readings.md#media-type)).
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { JSON_API_MEDIA_TYPE } from "messaging-events/jsonapi";
 *
 * const headers = { "Content-Type": JSON_API_MEDIA_TYPE, Accept: JSON_API_MEDIA_TYPE };
 * ```
 */
export const JSON_API_MEDIA_TYPE = "application/vnd.api+json";

/** The longest header value read; real `Content-Type` and `Accept` values are far shorter. */
const MAX_HEADER_LENGTH = 8192;

/** Splits on a separator that is not inside double quotes. */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === "\\" && quoted) {
      current += char + (value[++i] ?? "");
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  return [...parts, current];
}

/** One media range: is it JSON:API, is it a wildcard, and are its parameters only `ext`/`profile`? */
function mediaRange(value: string): { type: string; onlyJsonApiParameters: boolean } {
  const [type = "", ...parameters] = splitOutsideQuotes(value, ";");
  const names = parameters.map((parameter) => parameter.split("=")[0]!.trim().toLowerCase());
  // An Accept header's weight "q" belongs to the Accept syntax, not to the media type.
  const significant = names.filter((name) => name !== "q");
  return {
    type: type.trim().toLowerCase(),
    onlyJsonApiParameters:
      parameters.every((parameter) => parameter.includes("=")) &&
      significant.every((name) => name === "ext" || name === "profile"),
  };
}

/**
 * Checks a `Content-Type` value against JSON:API's rules: the media type
 * `application/vnd.api+json` (any letter case), with no parameters other than `ext` and `profile`.
 * A server answers 415 when this is false for a request's `Content-Type`. A value longer than 8 KB
 * is not read, and is `false`.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isJsonApiMediaType } from "messaging-events/jsonapi";
 *
 * isJsonApiMediaType("application/vnd.api+json"); // true
 * isJsonApiMediaType('application/vnd.api+json; profile="https://example.com/p"'); // true
 * isJsonApiMediaType("application/vnd.api+json; charset=utf-8"); // false
 * ```
 */
export function isJsonApiMediaType(value: unknown): boolean {
  if (typeof value !== "string" || value.length > MAX_HEADER_LENGTH) return false;
  const range = mediaRange(value);
  return range.type === JSON_API_MEDIA_TYPE && range.onlyJsonApiParameters && !/;\s*q\s*=/i.test(value);
}

/**
 * Checks an `Accept` value against JSON:API's rules: acceptable when it is absent or empty, when it
 * allows any type (`*\/*`, `application/*`), or when at least one JSON:API instance in it carries no
 * parameters other than `ext` and `profile`. A server answers 406 when this is false.
 *
 * Exported from `messaging-events/jsonapi` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { acceptsJsonApi } from "messaging-events/jsonapi";
 *
 * acceptsJsonApi("application/vnd.api+json, text/html;q=0.9"); // true
 * acceptsJsonApi("application/vnd.api+json; version=2"); // false
 * ```
 */
export function acceptsJsonApi(value: unknown): boolean {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === ""))
    return true;
  if (typeof value !== "string" || value.length > MAX_HEADER_LENGTH) return false;
  return splitOutsideQuotes(value, ",").some((entry) => {
    // "q=0" means "not acceptable".
    if (/;\s*q\s*=\s*0(?:\.0*)?\s*(?:;|$)/i.test(entry)) return false;
    const range = mediaRange(entry);
    if (range.type === "*/*" || range.type === "application/*") return true;
    return range.type === JSON_API_MEDIA_TYPE && range.onlyJsonApiParameters;
  });
}
