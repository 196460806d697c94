/** What {@link readBytesWithLimit} read: every byte, or the news that there were more than allowed. */
export type LimitedRead =
  | { readonly success: true; readonly bytes: Uint8Array }
  | { readonly success: false; readonly readBytes: number };

import { TimedOut } from "./timeBoxed.js";

/**
 * Reads a body stream chunk by chunk, at most `maxBytes` bytes: past the cap it stops, cancels the
 * stream (so a never-ending body costs no more than the cap) and answers `{ success: false }`. A `null`
 * body is empty. Read errors (a dropped connection, an abort) reject as the stream does. With
 * `timeoutMs`, a body not read to its end in that time is cancelled and the read rejects with
 * {@link TimedOut} (a body sent a byte at a time, or shorter than its `Content-Length`).
 */
export async function readBytesWithLimit(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs?: number,
): Promise<LimitedRead> {
  if (body === null) return { success: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          reader.cancel(new TimedOut(timeoutMs)).catch(() => undefined);
        }, timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw new TimedOut(timeoutMs!);
      if (done) break;
      if (!(value instanceof Uint8Array))
        throw new TypeError("the body stream gave something other than bytes");
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { success: false, readBytes: total };
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  if (chunks.length === 1) return { success: true, bytes: chunks[0]! };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { success: true, bytes };
}
