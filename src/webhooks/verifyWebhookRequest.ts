import { hmacKeys } from "./hmacKeys.js";
import type { VerifyWebhookOptions } from "./VerifyWebhookOptions.js";
import { verifySignedRequest } from "./verifySignedRequest.js";
import { optionsObject, own } from "./verifySignedWebhook.js";
import { payloadOf, type SafeVerifyWebhookResult, validateVerified } from "./verifyWebhook.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * The options of {@link verifyWebhookRequest}: those of `verifyWebhook` without `body` and
 * `headers`, which come from the request, plus a cap on the body's size, a time-out on reading it and
 * an abort signal.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { VerifyWebhookRequestOptions } from "messaging-events/webhooks";
 *
 * const options: VerifyWebhookRequestOptions = { secret: "s3cr3t", toleranceMs: 120_000, maxBodyBytes: 65_536 };
 * ```
 */
export interface VerifyWebhookRequestOptions extends Omit<VerifyWebhookOptions, "body" | "headers"> {
  /**
   * The largest body read, in bytes (a whole number ≥ 0): a larger `Content-Length` is refused without reading, and
   * reading stops (the stream is cancelled) as soon as the body passes it, with code
   * `ERR_WEBHOOK_BODY_TOO_LARGE`.
   * @default 1_048_576 (1 MiB)
   */
  readonly maxBodyBytes?: number;
  /** Aborts reading the body (`ERR_WEBHOOK_ABORTED`): the client went away, or the server shuts down. */
  readonly signal?: AbortSignal;
  /**
   * How long reading the body may take, in milliseconds, whatever `signal` does: past it, reading
   * stops (the stream is cancelled) with code `ERR_WEBHOOK_ABORTED` and a message that says it timed
   * out, so a client that never sends its body cannot hold the request open. `Infinity` turns it off.
   * @default 30_000 (30 s)
   */
  readonly timeoutMs?: number;
}

const usage = "pass the options as an object: verifyWebhookRequest(request, { secret })";

/**
 * Like {@link verifyWebhookRequest}, but resolves to `{ success: true, data, timestamp, expiresAt, signature }`
 * or `{ success: false, error }` and never rejects, whatever it is given.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookRequest, safeVerifyWebhookRequest } from "messaging-events/webhooks";
 *
 * const request = await createWebhookRequest("https://example.com/hooks", {
 *   payload: { type: "s.room.close", version: 2, content: {} },
 *   secret: "s3cr3t",
 * });
 * const result = await safeVerifyWebhookRequest(request, { secret: "s3cr3t" });
 * console.log(result.success ? result.data.type : result.error.code); // "s.room.close"
 * ```
 */
export function safeVerifyWebhookRequest(
  request: Request,
  options: VerifyWebhookRequestOptions,
): Promise<SafeVerifyWebhookResult> {
  return validateVerified(async () => {
    const input = optionsObject(options, usage, ["secret"]);
    return verifySignedRequest(request, input, hmacKeys(own(input, "secret")));
  });
}

/**
 * Verifies a webhook that arrives as a Fetch API `Request` (Cloudflare Workers, Deno, Bun, Next.js
 * route handlers, Hono's `c.req.raw`) and validates its payload: resolves to the typed
 * {@link WebhookPayload}, which narrows on `type`. Checks the options, then the headers, then reads
 * the body once, chunk by chunk, up to `maxBodyBytes` (1 MiB by default), then verifies it as
 * `verifyWebhook` does. Rejects with a `WebhookVerificationError` (`ERR_WEBHOOK_BODY_USED` if the
 * body was already read, `ERR_WEBHOOK_BODY_TOO_LARGE` past the cap) or an `EventValidationError`.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookRequest, verifyWebhookRequest } from "messaging-events/webhooks";
 *
 * const request = await createWebhookRequest("https://example.com/hooks", {
 *   payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" } },
 *   secret: "s3cr3t",
 * });
 * const payload = await verifyWebhookRequest(request, { secret: "s3cr3t" });
 * if (payload.type === "s.room.create") console.log(payload.content.creatorId); // "user-7"
 * ```
 */
export async function verifyWebhookRequest(
  request: Request,
  options: VerifyWebhookRequestOptions,
): Promise<WebhookPayload> {
  return payloadOf(await safeVerifyWebhookRequest(request, options));
}
