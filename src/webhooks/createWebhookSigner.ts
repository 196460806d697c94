import { webhookRequest } from "./createWebhookRequest.js";
import { type SignedWebhook, type SignWebhookOptions, signingKey, signWithKey } from "./signWebhook.js";
import { WebhookSigningError } from "./WebhookSigningError.js";

/**
 * A signer bound to its secret, whose key is imported once: see {@link createWebhookSigner}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookSigner, type WebhookSigner } from "messaging-events/webhooks";
 *
 * const signer: WebhookSigner = createWebhookSigner({ secret: "s3cr3t" });
 * ```
 */
export interface WebhookSigner {
  /** Signs a payload; resolves to the body and headers to send. */
  sign(input: Omit<SignWebhookOptions, "secret">): Promise<SignedWebhook>;
  /** Signs a payload and returns a ready `POST` `Request` to `url`. */
  createRequest(url: string | URL, input: Omit<SignWebhookOptions, "secret">): Promise<Request>;
}

/**
 * Creates a signer for one secret, importing the key once: for servers that emit many webhooks.
 * `encoding` sets the default signature encoding (`"hex"`, or `"base64"`). A bad secret or options
 * are reported by each signing, which rejects with a `WebhookSigningError`
 * (`ERR_WEBHOOK_SIGNING_INPUT`), as every input error of signing does.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookSigner } from "messaging-events/webhooks";
 *
 * const signer = createWebhookSigner({ secret: "s3cr3t" });
 * const { body, headers } = await signer.sign({ payload: { type: "s.room.close", version: 2, content: {} } });
 * console.log(headers["service-signature"]);
 * ```
 */
export function createWebhookSigner(options: Pick<SignWebhookOptions, "secret" | "encoding">): WebhookSigner {
  let secret: unknown;
  let encoding: unknown;
  let unreadable: unknown;
  try {
    ({ secret, encoding } = options);
  } catch (cause) {
    unreadable = new WebhookSigningError(
      "createWebhookSigner: pass the options as an object: createWebhookSigner({ secret })",
      { cause },
    );
  }
  const key = unreadable === undefined ? signingKey(secret) : Promise.reject(unreadable);
  // Surface a bad secret on first use, not as an unhandled rejection.
  key.catch(() => undefined);
  const sign: WebhookSigner["sign"] = async (input) => signWithKey(await key, input, encoding);
  return {
    sign,
    async createRequest(url, input) {
      return webhookRequest(url, await sign(input));
    },
  };
}
