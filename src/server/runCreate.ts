import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import { CreateDeadline } from "./CreateDeadline.js";
import { CreateRequest } from "./CreateRequest.js";
import type { CreateSignal } from "./CreateSignal.js";
import { createdResponse } from "./createdResponse.js";
import { eventOf } from "./eventOf.js";
import type { StoredResponse } from "./IdempotencyStore.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";
import type { Shutdown } from "./Shutdown.js";

/**
 * What a run of `create` came to: the response to store, `success: false` when it threw or returned
 * garbage, or `why` it was given up.
 */
export type CreateOutcome =
  | { success: true; response: StoredResponse }
  | { success: false }
  | { success: false; why: "timeout" | "closed" };

/**
 * Runs `create` within its deadline: past `createTimeoutMs` (or when a close runs out of time) its
 * signal aborts and the result it settles to later is dropped.
 */
export async function runCreateWithin(
  settings: NormalizedHandlerOptions,
  shutdown: Shutdown,
  document: EventDocument,
  principal: string,
  idempotencyKey: string | undefined,
  abort: CreateSignal,
): Promise<CreateOutcome> {
  const raced = await new CreateDeadline(shutdown).race(
    runCreate(settings, document, principal, idempotencyKey, abort),
    settings.createTimeoutMs,
  );
  if (raced.done) return raced.value;
  abort.abort(
    new Error(
      raced.why === "timeout"
        ? `create did not finish within createTimeoutMs (${settings.createTimeoutMs} ms)`
        : "the events handler closed before create finished",
    ),
  );
  return { success: false, why: raced.why };
}

/** Calls the user's create and builds the response to store; `success: false` when it threw or returned garbage. */
async function runCreate(
  settings: NormalizedHandlerOptions,
  document: EventDocument,
  principal: string,
  idempotencyKey: string | undefined,
  abort: CreateSignal,
): Promise<{ success: true; response: StoredResponse } | { success: false }> {
  try {
    const result = await settings.create(
      new CreateRequest(
        eventOf(document, settings.attributeNames),
        document,
        principal,
        idempotencyKey,
        abort,
      ),
    );
    const response = createdResponse(settings, document, result, idempotencyKey);
    return response === undefined ? { success: false } : { success: true, response };
  } catch {
    return { success: false };
  }
}
