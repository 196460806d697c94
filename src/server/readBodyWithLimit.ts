import { readBytesWithLimit } from "../internal/readBytesWithLimit.js";

/** The outcome of {@link readBodyWithLimit}. */
export type BodyReadResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "too-large" | "unreadable" };

/**
 * Reads a request body up to `maxBytes`: a `Content-Length` above the limit fails before anything is
 * read, and a stream that goes past it is cancelled at once, so a large body costs at most `maxBytes`
 * (plus one chunk) of memory.
 */
export async function readBodyWithLimit(request: Request, maxBytes: number): Promise<BodyReadResult> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, reason: "too-large" };
  }
  try {
    const read = await readBytesWithLimit(request.body, maxBytes);
    return read.ok ? read : { ok: false, reason: "too-large" };
  } catch {
    return { ok: false, reason: "unreadable" };
  }
}
