import { hmacKeys } from "../internal/hmacKeys.js";
import {
  type SafeVerifyWebhookResult,
  settle,
  verifySignedWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from "../internal/verifySignedWebhook.js";
import type { VerifyWebhookOptions } from "./verifyWebhook.js";
import { readRequestBody } from "./verifyWebhookRequest.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";

/**
 * A verifier bound to its secrets, whose keys are imported once: see {@link createWebhookVerifier}.
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
  /** Verifies a raw body and its headers; resolves to the parsed payload or rejects. */
  verify(input: { body: WebhookBody; headers: WebhookHeaders; now?: Date | number }): Promise<unknown>;
  /** The same, resolving to `{ ok, payload, timestamp }` or `{ ok: false, error }`; never rejects. */
  safeVerify(input: {
    body: WebhookBody;
    headers: WebhookHeaders;
    now?: Date | number;
  }): Promise<SafeVerifyWebhookResult>;
  /** Verifies a Fetch `Request`, reading its raw body once. */
  verifyRequest(request: Request, input?: { now?: Date | number }): Promise<unknown>;
}

/**
 * Creates a verifier for one secret or a list of them (rotation), importing each key once. Use it
 * in a server that verifies many webhooks. Throws a {@link WebhookVerificationError}
 * (`ERR_WEBHOOK_SECRET_INVALID`) at once if a secret is empty or not a string or bytes.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookVerifier, signWebhook } from "messaging-events/webhooks";
 *
 * const verifier = createWebhookVerifier({ secret: ["current-secret", "previous-secret"], toleranceSeconds: 300 });
 * const signed = await signWebhook({ payload: { type: "s.room.close", version: 2, content: {} }, secret: "previous-secret" });
 * const result = await verifier.safeVerify(signed);
 * console.log(result.ok); // true
 * ```
 */
export function createWebhookVerifier(
  options: Omit<VerifyWebhookOptions, "body" | "headers">,
): WebhookVerifier {
  // Throws at once for an unusable secret.
  const keys = hmacKeys(options?.secret);
  // A failed import (no Web Crypto here) is reported by each verification, not as an unhandled rejection.
  keys.catch(() => undefined);
  const { toleranceSeconds, now } = options;
  const safeVerify: WebhookVerifier["safeVerify"] = (input) =>
    settle(() => verifySignedWebhook({ toleranceSeconds, now, ...input }, keys));
  return {
    safeVerify,
    async verify(input) {
      const result = await safeVerify(input);
      if (!result.ok) throw result.error;
      return result.payload;
    },
    async verifyRequest(request, input) {
      const result = await settle(async () =>
        verifySignedWebhook(
          { toleranceSeconds, now, ...input, body: await readRequestBody(request), headers: request.headers },
          keys,
        ),
      );
      if (!result.ok) throw result.error;
      return result.payload;
    },
  };
}
