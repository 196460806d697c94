import type { EventValidationError } from "../events/EventValidationError.js";
import { hmacKeys } from "./hmacKeys.js";
import { safeParseWebhookPayload } from "./parseWebhookPayload.js";
import type { VerifyWebhookOptions } from "./VerifyWebhookOptions.js";
import {
  asVerificationError,
  optionsObject,
  type VerifiedWebhookSignature,
  verifySignedWebhook,
} from "./verifySignedWebhook.js";
import type { WebhookReplayCheck } from "./WebhookReplayCheck.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * The result of {@link safeVerifyWebhook} and of every other `safeVerify…`: the typed payload, the
 * signed time and the signature as lowercase hex of the MAC (to de-duplicate replays), or the
 * error. The error is a `WebhookVerificationError` (its `status` is the HTTP status to answer: 401,
 * 408, 413, 500 or 503) or an `EventValidationError` with code `ERR_INVALID_WEBHOOK_PAYLOAD`
 * (authentic, but not a payload the service describes: answer 400).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isWebhookVerificationError, type SafeVerifyWebhookResult } from "messaging-events/webhooks";
 *
 * function statusOf(result: SafeVerifyWebhookResult): number {
 *   if (result.ok) return 204;
 *   // Authentic, but not a payload the service describes.
 *   if (!isWebhookVerificationError(result.error)) return 400;
 *   return result.error.status;
 * }
 * ```
 */
export type SafeVerifyWebhookResult =
  | {
      readonly ok: true;
      /** The validated payload: narrow it on `type`. */
      readonly payload: WebhookPayload;
      /** The time in `service-timestamp`. */
      readonly timestamp: Date;
      /** The MAC as 128 lowercase hex digits, whichever accepted spelling the header used. */
      readonly signature: string;
      readonly error?: undefined;
    }
  | {
      readonly ok: false;
      readonly error: WebhookVerificationError | EventValidationError;
      readonly payload?: undefined;
      readonly timestamp?: undefined;
      readonly signature?: undefined;
    };

/** @internal Validates what a verification resolved to; the result, never a rejection. */
export async function validateVerified(
  verification: () => Promise<VerifiedWebhookSignature & { readonly replayGuard?: unknown }>,
): Promise<SafeVerifyWebhookResult> {
  let verified: VerifiedWebhookSignature & { readonly replayGuard?: unknown };
  try {
    verified = await verification();
  } catch (cause) {
    return { ok: false, error: asVerificationError(cause) };
  }
  const parsed = safeParseWebhookPayload(verified.payload);
  if (!parsed.success) return { ok: false, error: parsed.error };
  const { timestamp, signature, replayGuard } = verified;
  if (replayGuard !== undefined) {
    let accepted: unknown;
    try {
      accepted = await (replayGuard as WebhookReplayCheck).acceptSignature({ signature, timestamp });
    } catch (cause) {
      return {
        ok: false,
        error: new WebhookVerificationError(
          "ERR_WEBHOOK_REPLAY_CHECK_FAILED",
          "the replay check could not answer (see cause): answer 503 so that the sender retries",
          { cause },
        ),
      };
    }
    if (accepted !== true) {
      return {
        ok: false,
        error: new WebhookVerificationError(
          "ERR_WEBHOOK_REPLAYED",
          "this signed request was already accepted: a replay inside the timestamp window",
        ),
      };
    }
  }
  return { ok: true, payload: parsed.data, timestamp, signature };
}

/** @internal The replay guard of some options, read once, or `undefined`. */
export function replayGuardOf(options: Record<string, unknown>): { replayGuard?: unknown } {
  const guard = options.replayGuard;
  if (guard === undefined) return {};
  if (typeof (guard as { acceptSignature?: unknown } | null)?.acceptSignature !== "function") {
    throw new WebhookVerificationError(
      "ERR_WEBHOOK_INVALID_INPUT",
      "replayGuard must have an acceptSignature method (createWebhookReplayGuard makes one)",
    );
  }
  return { replayGuard: guard };
}

/** @internal The payload of a successful result, or its error thrown. */
export function payloadOf(result: SafeVerifyWebhookResult): WebhookPayload {
  if (!result.ok) throw result.error;
  return result.payload;
}

const usage = "pass one options object: verifyWebhook({ body, headers, secret })";

/**
 * Like {@link verifyWebhook}, but resolves to `{ ok: true, payload, timestamp, signature }` or
 * `{ ok: false, error }` and never rejects, whatever it is given. `signature` is the MAC as
 * lowercase hex: the same value for every accepted spelling, to de-duplicate replays inside the
 * time window.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeVerifyWebhook, signWebhook } from "messaging-events/webhooks";
 *
 * const signed = await signWebhook({ payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" } }, secret: "s3cr3t" });
 * const result = await safeVerifyWebhook({ ...signed, secret: "s3cr3t" });
 * if (result.ok && result.payload.type === "s.room.create") console.log(result.payload.content.creatorId);
 * if (!result.ok) console.log(result.error.code, result.error.message);
 * ```
 */
export function safeVerifyWebhook(options: VerifyWebhookOptions): Promise<SafeVerifyWebhookResult> {
  return validateVerified(async () => {
    const input = optionsObject(options, usage);
    const guard = replayGuardOf(input);
    return { ...(await verifySignedWebhook(input, hmacKeys(input.secret))), ...guard };
  });
}

/**
 * Verifies a signed webhook and validates its payload: resolves to the typed
 * {@link WebhookPayload}, which narrows on `type`. It checks that both headers are there, that
 * `service-timestamp` is an RFC 3339 date-time within `toleranceSeconds` of now (300 s by default,
 * both ways), that `service-signature` (lowercase or uppercase hex, base64 or base64url) is the
 * HMAC-SHA-512 of `<service-timestamp>:<raw body>` under one of the secrets (with
 * `crypto.subtle.verify`), and only then decodes and parses the body and validates it. Rejects with
 * a `WebhookVerificationError` (its `status` is the HTTP status to answer: 500 for a configuration
 * error, 401 for a refused request, 413 or 408 for a body too large or not read to the end) or an
 * `EventValidationError` with code `ERR_INVALID_WEBHOOK_PAYLOAD`
 * (authentic, but not a payload the service describes). Keys are imported once per secret and
 * cached. For a Fetch `Request`, use `verifyWebhookRequest`, which caps the body's size.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from "messaging-events/webhooks";
 *
 * const { body, headers } = await signWebhook({
 *   payload: { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-42" },
 *   secret: "s3cr3t",
 * });
 * const payload = await verifyWebhook({ body, headers, secret: "s3cr3t" });
 * if (payload.type === "s.message.text") console.log(payload.content.body, payload.roomId);
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookPayload> {
  return payloadOf(await safeVerifyWebhook(options));
}
