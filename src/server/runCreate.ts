import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import { CreateDeadline } from "./CreateDeadline.js";
import { CreateRequest } from "./CreateRequest.js";
import type { CreateSignal } from "./CreateSignal.js";
import { createdResponse } from "./createdResponse.js";
import { eventOf } from "./eventOf.js";
import type { StoredResponse } from "./IdempotencyStore.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";
import type { RequestErrors } from "./RequestErrors.js";
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
  errors: RequestErrors,
): Promise<CreateOutcome> {
  const raced = await new CreateDeadline(shutdown).race(
    runCreate(settings, document, principal, idempotencyKey, abort, errors),
    settings.createTimeoutMs,
  );
  if (raced.done) return raced.value;
  const reason = new Error(
    raced.why === "timeout"
      ? `create did not finish within createTimeoutMs (${settings.createTimeoutMs} ms)`
      : "the events handler closed before create finished",
  );
  abort.abort(reason);
  // A close is the operator's own doing; a create past its deadline is a failure to look into.
  if (raced.why === "timeout") errors.report("create", reason, 503);
  return { success: false, why: raced.why };
}

/** Calls the user's create and builds the response to store; `success: false` when it threw or returned garbage. */
async function runCreate(
  settings: NormalizedHandlerOptions,
  document: EventDocument,
  principal: string,
  idempotencyKey: string | undefined,
  abort: CreateSignal,
  errors: RequestErrors,
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
    if (response !== undefined) return { success: true, response };
    errors.report(
      "create",
      new TypeError(
        "create returned something other than { id, attributes?, relationships? } with an id of 1 to 26 characters, not blank",
      ),
      500,
    );
    return { success: false };
  } catch (error) {
    // A create given up on already (time-out, close) has been reported as such.
    if (!abort.signal.aborted) errors.report("create", error, 500);
    return { success: false };
  }
}
