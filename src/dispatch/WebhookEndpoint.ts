import type { WebhookSecret } from "../webhooks/WebhookSecret.js";
import type { WebhookEventType } from "../webhooks/webhookEventTypes.js";

/**
 * A customer URL that receives webhooks: an `id` of your choosing (it names the endpoint in hooks,
 * errors and stored deliveries: never put a secret in it), the `url` to `POST` to, and its signing
 * `secret`: one, or a list, newest first. Every attempt is signed with the newest (the first); during
 * a rotation, give the receiver both secrets first, then put the new one first here (a request
 * carries one signature, the service's format, so the receiver must know the new secret before it
 * signs anything).
 *
 * Optionally: the event `types` it subscribes to, `headers` to add to every request, and its own
 * `concurrency` and `ratePerSecond` limits (in this process).
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { WebhookEndpoint } from "messaging-events/dispatch";
 *
 * const endpoint: WebhookEndpoint = {
 *   id: "acme",
 *   url: "https://acme.example/hooks/messaging",
 *   secret: ["new-secret", "old-secret"],
 *   types: ["s.message.text", "s.message.media"],
 *   headers: { "x-acme-tenant": "42" },
 *   concurrency: 2,
 *   ratePerSecond: 20,
 * };
 * ```
 */
export interface WebhookEndpoint {
  /** A stable name: 1 to 200 visible ASCII characters. Deliveries refer to it. */
  readonly id: string;
  /** An `http:` or `https:` URL, to a public address unless `destinations` allows otherwise. */
  readonly url: string | URL;
  /** The signing secret, or a list of secrets, newest first (at least one): only the first signs. */
  readonly secret: WebhookSecret | readonly WebhookSecret[];
  /** The webhook types it receives; every type when absent. An event of another type is not queued for it. */
  readonly types?: readonly WebhookEventType[];
  /**
   * Headers added to every request to it (at most 20, 8 KiB in all). They never replace the ones
   * the dispatcher sets: `content-type`, `service-timestamp`, `service-signature`,
   * `service-webhook-id`, nor `host`, `content-length` and the other connection headers; naming one
   * of those is refused.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** The most attempts to it at once, in this process; the dispatcher's `endpointConcurrency` when absent. */
  readonly concurrency?: number;
  /** The most attempts to it started per second, in this process; no limit when absent. */
  readonly ratePerSecond?: number;
}
