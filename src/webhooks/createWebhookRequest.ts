import { type SignWebhookOptions, signWebhook } from "./signWebhook.js";

/**
 * Signs a webhook and returns a ready Fetch `Request`: `POST` to `url` with the signed body and
 * headers. For servers that emit webhooks, and for tests of receivers.
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
  const { body, headers } = await signWebhook(options);
  return new Request(url, { method: "POST", headers, body });
}
