import type { KeptText } from "./InspectorRecord.js";

const encoder = new TextEncoder();

/** The UTF-8 size of a string, without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The first `end` bytes of UTF-8 `bytes` as text, stepping back so that no character is cut. */
function decodeStart(bytes: Uint8Array, end: number): string {
  let at = Math.min(end, bytes.byteLength);
  if (at < bytes.byteLength) while (at > 0 && ((bytes[at] ?? 0) & 0xc0) === 0x80) at--;
  return new TextDecoder().decode(bytes.subarray(0, at));
}

/**
 * The start of `text`, at most `limit` UTF-8 bytes and never half a character, with its whole size
 * and whether it was cut: what the inspector keeps of a document from a client or a receiver.
 */
export function keepText(text: string, limit: number): KeptText {
  const bytes = utf8Bytes(text);
  if (bytes <= limit) return { text, bytes, cut: false };
  // A character takes at most 3 UTF-8 bytes per UTF-16 code unit: `limit` code units are enough.
  return { text: decodeStart(encoder.encode(text.slice(0, limit)), limit), bytes, cut: true };
}

/**
 * Reads at most `limit` bytes of a body stream (then lets go of the rest) as UTF-8 text: what the
 * inspector keeps of a request it did not read itself. Reading stops, and what came is kept as cut,
 * when `stop` settles first (a client that never finishes its body). Never throws.
 */
export async function readKeptText(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  stop?: Promise<unknown>,
): Promise<KeptText> {
  if (body === null) return { text: "", bytes: 0, cut: false };
  const chunks: Uint8Array[] = [];
  let read = 0;
  let cut = false;
  const reader = body.getReader();
  try {
    for (;;) {
      const next = reader.read();
      const step = stop === undefined ? await next : await Promise.race([next, stop.then(() => undefined)]);
      if (step === undefined) {
        cut = true;
        break;
      }
      const { done, value } = step;
      if (done) break;
      chunks.push(value);
      read += value.byteLength;
      if (read > limit) {
        cut = true;
        break;
      }
    }
  } catch {
    cut = true;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const all = new Uint8Array(read);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  if (!cut) return keepText(new TextDecoder().decode(all), limit);
  // The whole size is unknown: `bytes` says how much was read before the rest was let go.
  return { text: decodeStart(all, limit), bytes: read, cut: true };
}
