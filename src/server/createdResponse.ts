import { IDEMPOTENCY_KEY_META } from "../idempotency/idempotencyKey.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import { JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import type { CreateEventResult } from "./EventsHandlerOptions.js";
import type { StoredResponse } from "./IdempotencyStore.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";

/** A string with something other than white space, at most 26 characters (code points). */
const isResourceId = (value: unknown): value is string =>
  typeof value === "string" &&
  // No more UTF-16 units than 26 means no more code points; past 52 units, more code points.
  (value.length <= 26 || (value.length <= 52 && [...value].length <= 26)) &&
  (isVisibleAscii(value.charCodeAt(0)) || /\S/.test(value));

/** "!" to "~": never white space (what most ids start with, so the pattern is rarely needed). */
const isVisibleAscii = (code: number) => code > 0x20 && code < 0x7f;

/**
 * The 201 to store and answer for what `create` returned: the request's resource with the new `id`,
 * the attributes and relationships it added, the key and `Location`; `undefined` for garbage.
 */
export function createdResponse(
  settings: NormalizedHandlerOptions,
  document: EventDocument,
  result: CreateEventResult,
  idempotencyKey: string | undefined,
): StoredResponse | undefined {
  if (!isPlainObject(result) || !isResourceId(result.id)) return undefined;
  if (result.attributes !== undefined && !isPlainObject(result.attributes)) return undefined;
  if (result.relationships !== undefined && !isPlainObject(result.relationships)) return undefined;
  const relationships = result.relationships ?? document.data.relationships;
  const data: Record<string, unknown> = {
    id: result.id,
    type: "events",
    attributes:
      result.attributes === undefined
        ? document.data.attributes
        : { ...document.data.attributes, ...result.attributes },
  };
  if (relationships !== undefined) data.relationships = relationships;
  if (idempotencyKey !== undefined) data.meta = { [IDEMPOTENCY_KEY_META]: idempotencyKey };
  const headers: [string, string][] = [["content-type", JSON_API_MEDIA_TYPE]];
  if (settings.location !== undefined) {
    const location = String(settings.location(result.id));
    // A value a header cannot carry fails here, before anything is stored, not on every replay.
    new Headers({ location });
    headers.push(["location", location]);
  }
  return { status: 201, headers, body: JSON.stringify({ data }) };
}
