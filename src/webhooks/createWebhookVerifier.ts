import { hmacKeys } from "./hmacKeys.js";
import { verifySignedRequest } from "./verifySignedRequest.js";
import { optionsObject, verifySignedWebhook } from "./verifySignedWebhook.js";
import { payloadOf, type SafeVerifyWebhookResult, validateVerified } from "./verifyWebhook.js";
import type { VerifyWebhookRequestOptions } from "./verifyWebhookRequest.js";
import type { WebhookBody } from "./WebhookBody.js";
import type { WebhookHeaders } from "./WebhookHeaders.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * A verifier bound to its secrets, whose keys are imported once: see {@link createWebhookVerifier}.
 * Every method validates the payload and resolves to a typed {@link WebhookPayload}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookVerifier, type WebhookVerifier } from "messaging-events/webhooks";
 *
 * const verifier: WebhookVerifier = createWebhookVerifier({ secret: "s3cr3t" });
 * ```
 */
export interface WebhookVerifier {
  /** Verifies a raw body and its headers; resolves to the typed payload or rejects. */
  verify(input: { body: WebhookBody; headers: WebhookHeaders; now?: Date | number }): Promise<WebhookPayload>;
  /** The same, resolving to `{ success: true, data, timestamp, expiresAt, signature }` or `{ success: false, error }`; never rejects. */
  safeVerify(input: {
    body: WebhookBody;
    headers: WebhookHeaders;
    now?: Date | number;
  }): Promise<SafeVerifyWebhookResult>;
  /** Verifies a Fetch `Request`, reading its raw body once, up to `maxBodyBytes`. */
  verifyRequest(
    request: Request,
    input?: { now?: Date | number; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<WebhookPayload>;
  /** The same, resolving to a result; never rejects. */
  safeVerifyRequest(
    request: Request,
    input?: { now?: Date | number; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<SafeVerifyWebhookResult>;
}

/**
 * Creates a verifier for one secret or a list of them (rotation), importing each key once. Use it
 * in a server that verifies many webhooks. Throws a `WebhookVerificationError`
 * (`ERR_WEBHOOK_SECRET_INVALID`) at once if a secret is empty or not a string or bytes.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookVerifier, signWebhook } from "messaging-events/webhooks";
 *
 * const verifier = createWebhookVerifier({ secret: ["current-secret", "previous-secret"], toleranceMs: 300_000 });
 * const signed = await signWebhook({ payload: { type: "s.room.close", version: 2, content: {} }, secret: "previous-secret" });
 * const result = await verifier.safeVerify(signed);
 * console.log(result.success && result.data.type); // "s.room.close"
 * ```
 */
export function createWebhookVerifier(options: VerifyWebhookRequestOptions): WebhookVerifier {
  const { secret, ...defaults } = optionsObject(
    options,
    "pass the options as an object: createWebhookVerifier({ secret })",
    ["secret"],
  );
  // Throws at once for an unusable secret.
  const keys = hmacKeys(secret);
  // A failed import (no Web Crypto here) is reported by each verification, not as an unhandled rejection.
  keys.catch(() => undefined);
  const safeVerify: WebhookVerifier["safeVerify"] = (input) =>
    validateVerified(async () =>
      verifySignedWebhook(
        { ...defaults, ...optionsObject(input, "pass one object: verifier.verify({ body, headers })") },
        keys,
      ),
    );
  const safeVerifyRequest: WebhookVerifier["safeVerifyRequest"] = (request, input) =>
    validateVerified(async () =>
      verifySignedRequest(
        request,
        input === undefined
          ? defaults
          : {
              ...defaults,
              ...optionsObject(
                input,
                "pass the options as an object: verifier.verifyRequest(request, { signal })",
                [],
              ),
            },
        keys,
      ),
    );
  return {
    safeVerify,
    safeVerifyRequest,
    verify: async (input) => payloadOf(await safeVerify(input)),
    verifyRequest: async (request, input) => payloadOf(await safeVerifyRequest(request, input)),
  };
}
