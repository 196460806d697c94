import type { KeptText } from "../InspectorRecord.js";

const two = (value: number) => String(value).padStart(2, "0");

/** A time of day as `14:03:07.412`, local time. */
export function clock(epochMs: number): string {
  const date = new Date(epochMs);
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

/** A size in bytes as people read it: `512 B`, `16 KiB`, `1.2 MiB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

/** A kept document as shown: pretty JSON when it is whole JSON, else its text as it came. */
export function pretty(kept: KeptText): string {
  if (kept.cut || kept.text === "") return kept.text;
  try {
    return JSON.stringify(JSON.parse(kept.text), null, 2);
  } catch {
    return kept.text;
  }
}

/** What the page says of a cut document, or `undefined` when it is whole. */
export function cutNote(kept: KeptText): string | undefined {
  if (!kept.cut) return undefined;
  return `Cut: only the first ${size(new TextEncoder().encode(kept.text).byteLength)} are kept (of ${size(kept.bytes)} or more).`;
}

/** A time, and how far ahead it is when it is still to come: `14:03:07.412 (in 4 s)`. */
export function clockAhead(epochMs: number, now = Date.now()): string {
  const ms = epochMs - now;
  return ms <= 0 ? clock(epochMs) : `${clock(epochMs)} (${fromNow(ms)})`;
}

/** A wait in words: `in 4 s`, `in 2 min`. */
function fromNow(ms: number): string {
  if (ms < 60_000) return `in ${Math.ceil(ms / 1000)} s`;
  if (ms < 3_600_000) return `in ${Math.round(ms / 60_000)} min`;
  return `in ${Math.round((ms / 3_600_000) * 10) / 10} h`;
}

/** The reason phrase of the statuses the emulator and receivers answer with. */
const phrases: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** `201 Created`. */
export const statusText = (status: number): string =>
  `${status}${phrases[status] ? ` ${phrases[status]}` : ""}`;

/** The class of a status for colour: `ok`, `warn` (4xx) or `fail` (5xx, no answer). */
export function statusClass(status: number | undefined): "ok" | "warn" | "fail" {
  if (status === undefined || status >= 500) return "fail";
  return status >= 400 ? "warn" : "ok";
}
