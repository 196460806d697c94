import { callHook } from "../internal/callHook.js";
import { readHeader } from "../internal/headerValue.js";
import { isDeliveryId, type WebhookClaim, type WebhookReplayGuard } from "./createWebhookReplayGuard.js";
import type { NormalizedReceiverOptions } from "./normalizeReceiverOptions.js";
import type { SafeVerifyWebhookResult } from "./verifyWebhook.js";
import type { WebhookReceipt } from "./WebhookReceipt.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";
import { WEBHOOK_ID_HEADER } from "./webhookIdHeader.js";

/**
 * How the receiver answers a verified webhook: claim it, run the handler of its type, complete or
 * release the claim, and turn every outcome into the receipt of one status table.
 */

/** @internal The refusal of a receiver that is closing. */
export const closedError = () =>
  new WebhookVerificationError("ERR_WEBHOOK_STORE_UNAVAILABLE", "the receiver is closing: retry later");

/** @internal The answer for an error, after telling `onError`. */
export function failed(
  settings: NormalizedReceiverOptions,
  error: WebhookVerificationError,
  deliveryId: string | undefined,
  payload: Parameters<NonNullable<NormalizedReceiverOptions["onError"]>>[1]["payload"],
  retryAfterMs?: number,
): WebhookReceipt {
  report(settings, error, { status: error.status, deliveryId, payload });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.status === 409 || error.status === 503) {
    headers["retry-after"] = String(Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000)));
  }
  return {
    status: error.status,
    headers,
    body: JSON.stringify({ code: error.code, message: error.message }),
    error,
  };
}

function report(
  settings: NormalizedReceiverOptions,
  error: WebhookVerificationError,
  context: Parameters<NonNullable<NormalizedReceiverOptions["onError"]>>[1],
): void {
  // onError's own failure must not change the answer.
  callHook(settings.onError, error, context);
}

/** The answer to a webhook processed, now or before: a new object each time, the caller's to change. */
const processed = (): WebhookReceipt => ({ status: 204, headers: {}, body: "", error: undefined });

/** @internal Claims, runs the handler and answers, for a verification's result. */
export async function processVerified(
  settings: NormalizedReceiverOptions,
  guard: WebhookReplayGuard,
  headers: unknown,
  result: SafeVerifyWebhookResult,
): Promise<WebhookReceipt> {
  const idHeader =
    typeof headers === "object" && headers !== null ? readHeader(headers, WEBHOOK_ID_HEADER) : undefined;
  // An empty header is no id (a proxy or a client that sets it to ""): de-duplicated by signature.
  const deliveryId = idHeader?.value === "" ? undefined : idHeader?.value;
  // Told to onError only when it is a well-formed id: whatever else came in a header stays out of logs.
  const reportedId = isDeliveryId(deliveryId) ? deliveryId : undefined;
  if (!result.success) return failed(settings, result.error, reportedId, undefined);
  const { data: payload } = result;
  if (idHeader?.repeated) {
    return failed(
      settings,
      new WebhookVerificationError(
        "ERR_WEBHOOK_HEADER_REPEATED",
        `the "${WEBHOOK_ID_HEADER}" header came more than once: a delivery has one id`,
      ),
      undefined,
      payload,
    );
  }
  let claim: WebhookClaim;
  try {
    claim = await guard.claim(result, deliveryId);
  } catch (error) {
    return failed(settings, error as WebhookVerificationError, reportedId, payload);
  }
  switch (claim.status) {
    case "processed":
      return processed();
    case "replayed":
      return failed(
        settings,
        new WebhookVerificationError(
          "ERR_WEBHOOK_REPLAYED",
          "this exact signed request was already processed, under another delivery id or none: a replay inside the time window",
        ),
        deliveryId,
        payload,
      );
    case "in-progress":
      return failed(
        settings,
        new WebhookVerificationError(
          "ERR_WEBHOOK_IN_PROGRESS",
          "this delivery is being handled by another request: retry after the delay in Retry-After",
        ),
        deliveryId,
        payload,
        claim.retryAfterMs,
      );
  }
  const handler = settings.handlers.get(payload.type);
  try {
    await handler?.(payload, {
      deliveryId,
      timestamp: result.timestamp,
      signature: result.signature,
      signal: claim.signal,
    });
  } catch (cause) {
    const error = new WebhookVerificationError(
      "ERR_WEBHOOK_HANDLER_FAILED",
      `the handler of ${payload.type} threw (see cause): the delivery was released, so the sender's retry runs it again`,
      { cause },
    );
    try {
      await claim.release();
    } catch (storeError) {
      // The lease frees it in time; retries meanwhile get 409.
      report(settings, storeError as WebhookVerificationError, { status: 500, deliveryId, payload });
    }
    return failed(settings, error, deliveryId, payload);
  }
  // Handled: the answer is 204 whatever happens now. Not recorded, a retry would run it again: say so.
  let recorded: WebhookVerificationError | undefined;
  try {
    if (!(await claim.complete())) {
      recorded = new WebhookVerificationError(
        "ERR_WEBHOOK_STORE_UNAVAILABLE",
        "the claim on this delivery was lost before the handler returned (it ran past leaseMs without a renewal): handled, but not recorded, so a retry runs it again",
      );
    }
  } catch (storeError) {
    recorded = storeError as WebhookVerificationError;
  }
  if (recorded) report(settings, recorded, { status: 204, deliveryId, payload });
  return processed();
}
