import { hmacKeys } from "../internal/hmacKeys.js";
import { settle, verifySignedWebhook } from "../internal/verifySignedWebhook.js";
import type { VerifyWebhookOptions } from "./verifyWebhook.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";

/**
 * The options of {@link verifyWebhookRequest}: those of `verifyWebhook` without `body` and
 * `headers`, which come from the request.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { VerifyWebhookRequestOptions } from "messaging-events/webhooks";
 *
 * const options: VerifyWebhookRequestOptions = { secret: "s3cr3t", toleranceSeconds: 120 };
 * ```
 */
export type VerifyWebhookRequestOptions = Omit<VerifyWebhookOptions, "body" | "headers">;

/** @internal Reads a Fetch request's raw body once, for verification. */
export async function readRequestBody(request: Request): Promise<Uint8Array> {
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      "ERR_WEBHOOK_BODY_USED",
      "the request body was already read: verify the request before parsing it (or pass the raw text to verifyWebhook)",
    );
  }
  return new Uint8Array(await request.arrayBuffer());
}

/**
 * Verifies a webhook that arrives as a Fetch API `Request` (Cloudflare Workers, Deno, Bun, Next.js
 * route handlers, Hono's `c.req.raw`): reads the raw body once, verifies it with the request's
 * headers, and resolves to the parsed payload. Rejects with a {@link WebhookVerificationError}, with
 * code `ERR_WEBHOOK_BODY_USED` if the body was already consumed.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookRequest, verifyWebhookRequest } from "messaging-events/webhooks";
 *
 * const request = await createWebhookRequest("https://example.com/hooks", {
 *   payload: { type: "s.room.close", version: 2, content: {} },
 *   secret: "s3cr3t",
 * });
 * const payload = await verifyWebhookRequest(request, { secret: "s3cr3t" });
 * ```
 */
export async function verifyWebhookRequest(
  request: Request,
  options: VerifyWebhookRequestOptions,
): Promise<unknown> {
  const result = await settle(async () =>
    verifySignedWebhook(
      { ...options, body: await readRequestBody(request), headers: request.headers },
      hmacKeys(options?.secret),
    ),
  );
  if (!result.ok) throw result.error;
  return result.payload;
}
