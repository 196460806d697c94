import type { WebhookSecret } from "../internal/hmacKeys.js";
import { hmacKeys } from "../internal/hmacKeys.js";
import {
  type SafeVerifyWebhookResult,
  settle,
  verifySignedWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from "../internal/verifySignedWebhook.js";

export type { SafeVerifyWebhookResult, WebhookBody, WebhookHeaders, WebhookSecret };

/**
 * What {@link verifyWebhook} needs: the raw body and the headers exactly as received, and the
 * signing secret (or several, during a rotation: any one may match).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { VerifyWebhookOptions } from "messaging-events/webhooks";
 *
 * const options: VerifyWebhookOptions = {
 *   body: '{"type":"s.room.close","version":2,"content":{}}',
 *   headers: { "service-timestamp": "2026-11-22T18:00:00.000Z", "service-signature": "…" },
 *   secret: ["new-secret", "old-secret"],
 *   toleranceSeconds: 60,
 * };
 * ```
 */
export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received: never re-serialise it (ruling 19). */
  readonly body: WebhookBody;
  /** The request headers; names are matched case-insensitively. */
  readonly headers: WebhookHeaders;
  /** The signing secret, or a list of secrets of which any one may match (rotation). */
  readonly secret: WebhookSecret | readonly WebhookSecret[];
  /**
   * How far `service-timestamp` may lie from `now`, in either direction, in seconds.
   * @default 300
   */
  readonly toleranceSeconds?: number;
  /**
   * The current time, for tests and replays.
   * @default Date.now()
   */
  readonly now?: Date | number;
}

/**
 * Verifies a signed webhook and resolves to its parsed JSON payload, or rejects with a
 * {@link WebhookVerificationError} whose `code` says why. It checks that both headers are there,
 * that `service-timestamp` is an RFC 3339 date-time within `toleranceSeconds` of now (300 s by
 * default, both ways), and that `service-signature` (hex or base64) is the HMAC-SHA-512 of
 * `<service-timestamp>:<raw body>` under one of the secrets, with `crypto.subtle.verify`; only
 * then does it parse the body. Keys are imported once per secret and cached.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from "messaging-events/webhooks";
 *
 * const { body, headers } = await signWebhook({ payload: { type: "s.room.close", version: 2, content: {} }, secret: "s3cr3t" });
 * const payload = await verifyWebhook({ body, headers, secret: "s3cr3t" });
 * console.log(payload); // { type: "s.room.close", version: 2, content: {} }
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<unknown> {
  return (await verifySignedWebhook(options ?? {}, hmacKeys(options?.secret))).payload;
}

/**
 * Like {@link verifyWebhook}, but resolves to `{ ok: true, payload, timestamp }` or
 * `{ ok: false, error }` and never rejects, whatever it is given.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { safeVerifyWebhook } from "messaging-events/webhooks";
 *
 * const result = await safeVerifyWebhook({ body: "{}", headers: new Headers(), secret: "s3cr3t" });
 * if (!result.ok) console.log(result.error.code, result.error.message); // ERR_WEBHOOK_HEADER_MISSING …
 * ```
 */
export function safeVerifyWebhook(options: VerifyWebhookOptions): Promise<SafeVerifyWebhookResult> {
  return settle(() => verifySignedWebhook(options ?? {}, hmacKeys(options?.secret)));
}
