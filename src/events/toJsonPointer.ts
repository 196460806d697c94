import { jsonPointer } from "../internal/jsonPointer.js";

/** The most segments a pointer is built from; the library's own paths never come near it. */
const MAX_SEGMENTS = 4096;

/**
 * Turns a path (the `path` of an {@link EventValidationIssue}) into an RFC 6901 JSON pointer:
 * `["content", "options", 0, "value"]` becomes `"/content/options/0/value"`. `~` and `/` inside a
 * key are escaped as `~0` and `~1`; the empty path is the empty pointer `""` (the whole document).
 * Pass a `prefix` pointer to point into an enclosing document. Never throws: a path that is not an
 * array gives the prefix, and only the first 4,096 segments are used.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { toJsonPointer } from "messaging-events/events";
 *
 * toJsonPointer(["content", "options", 0, "value"]); // "/content/options/0/value"
 * toJsonPointer(["content", "a/b"]); // "/content/a~1b"
 * toJsonPointer(["content", "body"], "/data/attributes"); // "/data/attributes/content/body"
 * ```
 */
export function toJsonPointer(path: readonly PropertyKey[], prefix = ""): string {
  const start = typeof prefix === "string" ? prefix : "";
  try {
    // A sparse array can claim 2^32 - 1 segments: no real path is near the cap.
    return Array.isArray(path)
      ? jsonPointer(path.length > MAX_SEGMENTS ? path.slice(0, MAX_SEGMENTS) : path, start)
      : start;
  } catch {
    // A segment that cannot be turned into a string (a hostile object): point at the prefix.
    return start;
  }
}
