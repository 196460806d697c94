import { type SignedWebhook, type SignWebhookOptions, signWebhook } from "./signWebhook.js";
import { WebhookSigningError } from "./WebhookSigningError.js";

/** @internal The `POST` request that carries a signed webhook, or the error that says `url` is unusable. */
export function webhookRequest(url: unknown, signed: SignedWebhook): Request {
  const { body, headers } = signed;
  try {
    return new Request(url as string, { method: "POST", headers, body });
  } catch {
    // No cause: the runtime's error may carry the URL, and a URL may carry credentials.
    throw new WebhookSigningError(
      "createWebhookRequest: url must be an absolute URL without credentials (user:password@)",
    );
  }
}

/**
 * Signs a webhook and returns a ready Fetch `Request`: `POST` to `url` with the signed body and
 * headers. For servers that emit webhooks, and for tests of receivers. Rejects with a
 * `WebhookSigningError` (`ERR_WEBHOOK_SIGNING_INPUT`) for input that cannot be signed, as
 * `signWebhook` does.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookRequest } from "messaging-events/webhooks";
 *
 * const request = await createWebhookRequest("http://localhost:3000/hooks", {
 *   payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" } },
 *   secret: "s3cr3t",
 * });
 * console.log(request.method, request.headers.get("service-timestamp")); // POST 2026-…
 * ```
 */
export async function createWebhookRequest(url: string | URL, options: SignWebhookOptions): Promise<Request> {
  return webhookRequest(url, await signWebhook(options));
}
