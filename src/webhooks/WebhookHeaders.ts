/**
 * Request headers as users have them: a Fetch `Headers`, Node's `IncomingHttpHeaders` (string or
 * string[] values), or a plain record. Names are matched case-insensitively.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookHeaders } from "messaging-events/webhooks";
 *
 * const headers: WebhookHeaders = { "Service-Timestamp": "2026-11-22T18:00:00.000Z", "Service-Signature": "…" };
 * ```
 */
export type WebhookHeaders =
  | {
      /** The value of a header, or `null` when it is absent (Fetch `Headers.get`). */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;
