/**
 * A URL as telemetry may see it: without its query, fragment, user name or password (a query may
 * carry a token, a tenant's data). `undefined` for a URL that cannot be read.
 */
export function urlWithoutQuery(url: string): string | undefined {
  try {
    const target = new URL(url);
    target.username = "";
    target.password = "";
    target.search = "";
    target.hash = "";
    return target.href;
  } catch {
    return undefined;
  }
}
