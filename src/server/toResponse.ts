import type { StoredResponse } from "./IdempotencyStore.js";

/** The header that marks a replayed response. */
const REPLAYED_HEADER = "idempotent-replayed";

/** A stored response as a `Response`; a replay is marked `Idempotent-Replayed: true`. */
export function toResponse(stored: StoredResponse, replayed = false): Response {
  // The Response copies the headers it is given: only a replay needs a list of its own.
  const headers = replayed ? [...stored.headers, [REPLAYED_HEADER, "true"] as const] : stored.headers;
  return new Response(stored.body, { status: stored.status, headers: headers as [string, string][] });
}
