/**
 * A JSON:API error object as the service sent it, bounded: only its string members `id`, `status`,
 * `code`, `title`, `detail` and `source.pointer` / `source.parameter` / `source.header`, each with
 * its control characters, line and paragraph separators and bidirectional controls escaped (`\n`,
 * `\u001b`, `\u202e`: a logged error cannot forge or hide a line) and cut to 1,000 characters.
 * Anything else it carried (meta, links, members of other types) is dropped. The client blots the
 * `authorization` value out of every member first, however the service escaped it.
 *
 * Exported from `messaging-events/client` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { EventsApiErrorObject } from "messaging-events/client";
 *
 * const error: EventsApiErrorObject = { status: "422", code: "too_long", detail: "content.body is too long", source: { pointer: "/data/attributes/content/body" } };
 * ```
 */
export interface EventsApiErrorObject {
  /** The error's id, if the service gave one. */
  readonly id?: string;
  /** The HTTP status, as a string. */
  readonly status?: string;
  /** The service's code for the problem. */
  readonly code?: string;
  /** A short summary of the problem. */
  readonly title?: string;
  /** What went wrong, for a person. */
  readonly detail?: string;
  /** Where the problem is in the request. */
  readonly source?: { readonly pointer?: string; readonly parameter?: string; readonly header?: string };
}
