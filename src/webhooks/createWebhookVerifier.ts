import { guardTelemetry } from "../internal/guardTelemetry.js";
import { hmacKeys } from "./hmacKeys.js";
import { verifySignedRequest } from "./verifySignedRequest.js";
import { optionsObject, own, verifySignedWebhook } from "./verifySignedWebhook.js";
import { payloadOf, type SafeVerifyWebhookResult, validateVerified } from "./verifyWebhook.js";
import type { VerifyWebhookRequestOptions } from "./verifyWebhookRequest.js";
import type { WebhookBody } from "./WebhookBody.js";
import type { WebhookHeaders } from "./WebhookHeaders.js";
import type { WebhookTelemetry } from "./WebhookTelemetry.js";
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
 * The options of {@link createWebhookVerifier}: those of `verifyWebhookRequest` (the secret or
 * secrets, `toleranceMs`, the body's cap and time-out), which every method applies unless its call
 * says otherwise, and its `telemetry`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookVerifierOptions } from "messaging-events/webhooks";
 *
 * const options: WebhookVerifierOptions = { secret: ["new-secret", "old-secret"], toleranceMs: 120_000 };
 * ```
 */
export interface WebhookVerifierOptions extends VerifyWebhookRequestOptions {
  /**
   * Traces every verification: `createOpenTelemetry()` from `messaging-events/opentelemetry`
   * records a span per call with its outcome code and the webhook's type (never the secret, the
   * signature or the body). Without it nothing is traced and nothing of OpenTelemetry is loaded.
   */
  readonly telemetry?: WebhookTelemetry;
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
export function createWebhookVerifier(options: WebhookVerifierOptions): WebhookVerifier {
  const {
    secret: _secret,
    telemetry: _telemetry,
    ...defaults
  } = optionsObject(options, "pass the options as an object: createWebhookVerifier({ secret })", ["secret"]);
  const secret = own(options, "secret");
  const telemetry = guardTelemetry(
    own(options, "telemetry") as WebhookTelemetry | undefined,
    "createWebhookVerifier:",
    "startWebhook",
  );
  // Throws at once for an unusable secret.
  const keys = hmacKeys(secret);
  // A failed import (no Web Crypto here) is reported by each verification, not as an unhandled rejection.
  keys.catch(() => undefined);
  /** A verification within its trace, when there is telemetry: the trace hears its outcome. */
  const traced = async (
    verification: () => Promise<SafeVerifyWebhookResult>,
  ): Promise<SafeVerifyWebhookResult> => {
    const trace = telemetry?.startWebhook({ operation: "verify" });
    if (trace === undefined) return verification();
    let result: SafeVerifyWebhookResult | undefined;
    try {
      result = await trace.run(verification);
      return result;
    } finally {
      trace.end({
        code: result === undefined ? "ERR_WEBHOOK_INVALID_INPUT" : result.error?.code,
        status: undefined,
        eventType: result?.data?.type,
        deliveryId: undefined,
      });
    }
  };
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
  const checked: WebhookVerifier["safeVerify"] =
    telemetry === undefined ? safeVerify : (input) => traced(() => safeVerify(input));
  const checkedRequest: WebhookVerifier["safeVerifyRequest"] =
    telemetry === undefined
      ? safeVerifyRequest
      : (request, input) => traced(() => safeVerifyRequest(request, input));
  return {
    safeVerify: checked,
    safeVerifyRequest: checkedRequest,
    verify: async (input) => payloadOf(await checked(input)),
    verifyRequest: async (request, input) => payloadOf(await checkedRequest(request, input)),
  };
}
