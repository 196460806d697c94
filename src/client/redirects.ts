import { redactSecrets } from "./redactSecrets.js";

/** Whether the answer is a redirect, which the client never follows. */
export const isRedirect = (response: Response): boolean =>
  response.type === "opaqueredirect" ||
  (response.status >= 300 && response.status < 400) ||
  // A custom fetch that followed one in spite of redirect: "manual".
  response.redirected === true;

/**
 * Where a redirect pointed, absolute, without user info, query, fragment or secrets (a query is
 * shown as `?…`); browsers hide it. The secrets are
 * blotted out both before the URL is parsed (which rewrites a path: `\` to `/`, `..` removed) and
 * after (which percent-encodes and lowercases the host), however the service escaped them.
 */
export function locationOf(
  response: Response,
  endpoint: string,
  secrets: readonly string[],
): string | undefined {
  const value = response.redirected === true ? response.url : response.headers.get("location");
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(redactSecrets(value, secrets), endpoint);
  } catch {
    return undefined;
  }
  url.username = "";
  url.password = "";
  // Nor its query or fragment, which may carry a token (the base URL's own, sent back).
  const query = url.search === "" ? "" : "?…";
  url.search = "";
  url.hash = "";
  return redactSecrets(url.href, secrets) + query;
}
