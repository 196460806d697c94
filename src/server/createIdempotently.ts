import { IDEMPOTENCY_KEY_META } from "../idempotency/idempotencyKey.js";
import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import { CreateSignal } from "./CreateSignal.js";
import { singleError } from "./errorResponse.js";
import { fingerprintDocument } from "./fingerprintDocument.js";
import type { IdempotencyRecordRef } from "./IdempotencyStore.js";
import { isIdempotencyStoreError } from "./IdempotencyStoreError.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";
import type { RequestErrors } from "./RequestErrors.js";
import { createGivenUp, inFlight, internalError, quotaExceeded, unavailable } from "./retryLaterResponses.js";
import { type CreateOutcome, runCreateWithin } from "./runCreate.js";
import type { Shutdown } from "./Shutdown.js";
import { tracedStoreCall } from "./storeCall.js";
import { toResponse } from "./toResponse.js";

/**
 * Creates the event at most once per principal and key: the key is claimed atomically (by the
 * fingerprint of `parsed`, the document as sent), its lease kept while `create` runs, and the
 * response stored for retries. A completed key answers its stored response as a replay, a key in
 * flight 409, a key used with another document 422; a `create` that fails frees the key.
 */
export async function createIdempotently(
  settings: NormalizedHandlerOptions,
  shutdown: Shutdown,
  parsed: unknown,
  document: EventDocument,
  principal: string,
  key: string,
  errors: RequestErrors,
): Promise<Response> {
  const hashed = fingerprintDocument(parsed);
  const fingerprint = typeof hashed === "string" ? hashed : await hashed;
  const token = crypto.randomUUID();
  const ref: IdempotencyRecordRef = { scope: principal, key, token };
  const { trace } = errors;
  let claim: Awaited<ReturnType<typeof settings.store.claim>>;
  try {
    claim = await tracedStoreCall(
      settings,
      trace,
      "claim",
      () => settings.store.claim({ scope: principal, key, token, fingerprint, leaseMs: settings.leaseMs }),
      // Answered 503 already: a claim that lands now must not hold the key for a whole lease.
      (late) => {
        if (late.status === "claimed") {
          settings.store.release(ref).catch((error: unknown) => errors.report("store", error, undefined));
        }
      },
    );
  } catch (error) {
    // One principal out of room in the store is told so, apart from an outage that concerns everyone.
    if (isIdempotencyStoreError(error) && error.code === "ERR_IDEMPOTENCY_QUOTA_EXCEEDED")
      return quotaExceeded();
    errors.report("store", error, 503);
    return unavailable();
  }
  switch (claim.status) {
    case "completed":
      trace?.record({ idempotency: "replayed" });
      return toResponse(claim.response, true);
    case "in-flight":
      trace?.record({ idempotency: "in-flight" });
      return inFlight(settings);
    case "mismatch":
      trace?.record({ idempotency: "reused" });
      return singleError(
        422,
        "ERR_IDEMPOTENCY_KEY_REUSED",
        "this idempotency key was already used with a different document; use a new key for a new event",
        { pointer: `/data/meta/${IDEMPOTENCY_KEY_META}` },
      );
  }

  // The claim is ours: keep the lease alive while create runs, and stop create if it is lost.
  const lost = new CreateSignal(shutdown);
  const release = shutdown.leases.keep(ref, () =>
    lost.abort(new Error("the claim on the idempotency key was lost")),
  );
  let created: CreateOutcome;
  try {
    created = await runCreateWithin(settings, shutdown, document, principal, key, lost, errors);
  } finally {
    release();
    lost.done();
  }
  if (!created.success) {
    // Freed with a compare-and-delete on this request's token: a holder that took over keeps the key.
    await tracedStoreCall(settings, trace, "release", () => settings.store.release(ref)).catch(
      (error: unknown) => errors.report("store", error, undefined),
    );
    return "why" in created ? createGivenUp(settings, created.why) : internalError();
  }
  trace?.record({ idempotency: "created" });
  let stored: boolean;
  try {
    stored = await tracedStoreCall(settings, trace, "complete", () =>
      settings.store.complete(ref, created.response, settings.retentionMs),
    );
  } catch (error) {
    // The event exists: answering it is right; the record may be missing for retries that come
    // after, which would create it again: the operator must hear of it.
    errors.report("complete", error, 201);
    return toResponse(created.response);
  }
  // Another request took the key over after this one's lease ran out: its record is the one to serve.
  return stored ? toResponse(created.response) : inFlight(settings);
}
