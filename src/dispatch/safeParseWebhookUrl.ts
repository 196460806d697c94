import { DispatchError } from "./DispatchError.js";
import { createDestinationPolicy, type DestinationPolicy } from "./destinationPolicy.js";
import type { WebhookDestinations } from "./WebhookDestinations.js";

/**
 * What {@link safeParseWebhookUrl} returns: the URL, parsed, or the `DispatchError` that says why
 * the dispatcher would refuse it.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { safeParseWebhookUrl, type WebhookUrlResult } from "messaging-events/dispatch";
 *
 * const result: WebhookUrlResult = safeParseWebhookUrl("https://acme.example/hooks");
 * console.log(result.success); // true
 * ```
 */
export type WebhookUrlResult =
  | { readonly success: true; readonly data: URL }
  | { readonly success: false; readonly error: DispatchError };

/**
 * Checks a URL a customer registers, before you store it, by the same rules as the dispatcher:
 * absolute `http:` or `https:` (`https:` only with `httpsOnly`), with no credentials in it, and not an
 * internal address literal in any spelling (`127.0.0.1`, `2130706433`, `0x7f.0.0.1`, `[::ffff:7f00:1]`,
 * `169.254.169.254`, `[fd00::1]`, …) nor a name that can only be local (`localhost`,
 * `*.internal`, …), unless `destinations.allow` allows it. A host name that resolves to an internal
 * address passes here (nothing is resolved): the dispatcher refuses it when it connects.
 *
 * Returns for any argument; the error's message never holds the URL.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import { safeParseWebhookUrl } from "messaging-events/dispatch";
 *
 * const result = safeParseWebhookUrl("http://169.254.169.254/latest/meta-data/");
 * if (!result.success) console.log(result.error.code); // "ERR_DISPATCH_DESTINATION_REFUSED"
 * ```
 */
export function safeParseWebhookUrl(url: unknown, destinations?: WebhookDestinations): WebhookUrlResult {
  let policy: DestinationPolicy;
  try {
    policy = createDestinationPolicy(destinations);
  } catch (cause) {
    return refused("ERR_DISPATCH_INVALID_ENDPOINT", "destinations is not valid", cause);
  }
  let parsed: URL;
  try {
    parsed = new URL(typeof url === "string" ? url : url instanceof URL ? url.href : "");
  } catch {
    return refused("ERR_DISPATCH_INVALID_ENDPOINT", "the URL must be an absolute http: or https: URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return refused("ERR_DISPATCH_INVALID_ENDPOINT", "the URL must be an absolute http: or https: URL");
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return refused(
      "ERR_DISPATCH_INVALID_ENDPOINT",
      "the URL must not hold a user name or password; send credentials in the endpoint's headers",
    );
  }
  switch (policy.checkUrl(parsed)) {
    case "scheme":
      return refused(
        "ERR_DISPATCH_DESTINATION_REFUSED",
        "the URL must be https: (destinations.httpsOnly is on)",
      );
    case "address":
      return refused(
        "ERR_DISPATCH_DESTINATION_REFUSED",
        "the URL points to a loopback, private, link-local or otherwise internal address",
      );
    default:
      return { success: true, data: parsed };
  }
}

function refused(
  code: "ERR_DISPATCH_INVALID_ENDPOINT" | "ERR_DISPATCH_DESTINATION_REFUSED",
  message: string,
  cause?: unknown,
): WebhookUrlResult {
  return {
    success: false,
    error: new DispatchError(code, message, cause === undefined ? undefined : { cause }),
  };
}
