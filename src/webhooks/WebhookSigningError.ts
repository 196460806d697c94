/**
 * Why a webhook could not be signed: a payload that JSON cannot carry (a `BigInt`, a function, a
 * getter that throws: the failure is kept as `cause`), a secret that is empty or not a string or
 * bytes, a timestamp that is not a valid date, or an unknown encoding. Its `code` is always
 * `ERR_WEBHOOK_SIGNING_INPUT`; it is a `TypeError`, so `catch` blocks written for one still match.
 * `signWebhook`, `createWebhookSigner` and `createWebhookRequest` reject with it. Its message never
 * contains the secret.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { signWebhook, WebhookSigningError } from "messaging-events/webhooks";
 *
 * try {
 *   await signWebhook({ payload: { count: 1n }, secret: "s3cr3t" });
 * } catch (error) {
 *   if (error instanceof WebhookSigningError) console.log(error.code); // "ERR_WEBHOOK_SIGNING_INPUT"
 * }
 * ```
 */
export class WebhookSigningError extends TypeError {
  /** Always `ERR_WEBHOOK_SIGNING_INPUT`: the input to sign is not usable. */
  declare readonly code: "ERR_WEBHOOK_SIGNING_INPUT";

  /**
   * Creates the error. The library creates these; applications normally only read them.
   *
   * @param message - What to fix; never the secret.
   * @param options - `cause`: the failure this error wraps, if any.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebhookSigningError";
    this.code = "ERR_WEBHOOK_SIGNING_INPUT";
  }
}

/**
 * Tells whether a value is a {@link WebhookSigningError}, also when it comes from another realm or
 * another copy of this library, where `instanceof` fails. Returns `false`, never throws, for
 * anything else (a revoked proxy, a throwing getter).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { isWebhookSigningError, signWebhook } from "messaging-events/webhooks";
 *
 * const error = await signWebhook({ payload: {}, secret: "" }).catch((reason: unknown) => reason);
 * console.log(isWebhookSigningError(error)); // true
 * ```
 */
export function isWebhookSigningError(value: unknown): value is WebhookSigningError {
  try {
    return (
      value instanceof WebhookSigningError ||
      // An error of any realm: the tag comes from the internal slot unless a getter says otherwise.
      (Object.prototype.toString.call(value) === "[object Error]" &&
        (value as Error).name === "WebhookSigningError" &&
        (value as { code?: unknown }).code === "ERR_WEBHOOK_SIGNING_INPUT")
    );
  } catch {
    return false;
  }
}
