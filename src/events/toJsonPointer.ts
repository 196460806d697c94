import { jsonPointer } from "../internal/jsonPointer.js";

/**
 * Turns a path (as found in {@link EventValidationIssue.path}) into an RFC 6901 JSON pointer:
 * `["content", "options", 0, "value"]` becomes `"/content/options/0/value"`. `~` and `/` inside a
 * key are escaped as `~0` and `~1`; the empty path is the empty pointer `""` (the whole document).
 * Pass a `prefix` pointer to point into an enclosing document.
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
    return Array.isArray(path) ? jsonPointer(path, start) : start;
  } catch {
    // A segment that cannot be turned into a string (a hostile object): point at the prefix.
    return start;
  }
}
