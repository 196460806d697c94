import type { WebhookSecret } from "../webhooks/WebhookSecret.js";

/**
 * A customer URL that receives webhooks: an `id` of your choosing (it names the endpoint in hooks,
 * errors and stored deliveries: never put a secret in it), the `url` to `POST` to, and its signing
 * `secrets`, newest first. Every attempt is signed with the newest; during a rotation, put the new
 * secret first and keep the old one after it until the receiver accepts both.
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
 *   secrets: ["new-secret", "old-secret"],
 * };
 * ```
 */
export interface WebhookEndpoint {
  /** A stable name: 1 to 200 visible ASCII characters. Deliveries refer to it. */
  readonly id: string;
  /** An `http:` or `https:` URL. */
  readonly url: string | URL;
  /** The signing secrets, newest first; at least one. Only the first signs. */
  readonly secrets: readonly WebhookSecret[];
}
