import type { WebhookSecret } from "../webhooks/WebhookSecret.js";

/**
 * A customer URL that receives webhooks: an `id` of your choosing (it names the endpoint in hooks,
 * errors and stored deliveries: never put a secret in it), the `url` to `POST` to, and its signing
 * `secret`: one, or a list, newest first. Every attempt is signed with the newest (the first); during
 * a rotation, give the receiver both secrets first, then put the new one first here.
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
 * };
 * ```
 */
export interface WebhookEndpoint {
  /** A stable name: 1 to 200 visible ASCII characters. Deliveries refer to it. */
  readonly id: string;
  /** An `http:` or `https:` URL. */
  readonly url: string | URL;
  /** The signing secret, or a list of secrets, newest first (at least one): only the first signs. */
  readonly secret: WebhookSecret | readonly WebhookSecret[];
}
