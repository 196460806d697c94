import { readBytesWithLimit } from "../internal/readBytesWithLimit.js";
import { TimedOut } from "../internal/timeBoxed.js";

/** The outcome of {@link readBodyWithLimit}. */
export type BodyReadResult =
  | { readonly success: true; readonly bytes: Uint8Array }
  | { readonly success: false; readonly reason: "too-large" | "unreadable" | "timeout" };

/**
 * Reads a request body up to `maxBytes`, within `timeoutMs`: a `Content-Length` above the limit
 * fails before anything is read, a stream that goes past it is cancelled at once (so a large body
 * costs at most `maxBytes`, plus one chunk, of memory), and a body not read to its end in time (a
 * byte a second, or fewer bytes than its `Content-Length`) is cancelled with `reason: "timeout"`.
 */
export async function readBodyWithLimit(
  request: Request,
  maxBytes: number,
  timeoutMs?: number,
): Promise<BodyReadResult> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { success: false, reason: "too-large" };
  }
  try {
    const read = await readBytesWithLimit(request.body, maxBytes, timeoutMs);
    return read.success ? read : { success: false, reason: "too-large" };
  } catch (error) {
    return { success: false, reason: error instanceof TimedOut ? "timeout" : "unreadable" };
  }
}
