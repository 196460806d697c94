import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { ACTION_HEADER } from "./InspectorRecord.js";

/** The first value of a header. */
const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Whether a `Host` header names this emulator: its port, and a host name no one else controls (an IP
 * address, `localhost`, or the `--host` it was started with). A page on another site that points its
 * own name at 127.0.0.1 (DNS rebinding) sends its own name: it is refused.
 */
export function isOwnHost(hostHeader: string | undefined, port: number, configuredHost: string): boolean {
  if (hostHeader === undefined || hostHeader.length > 300) return false;
  let url: URL;
  try {
    url = new URL(`http://${hostHeader}`);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "") return false;
  if ((url.port === "" ? 80 : Number(url.port)) !== port) return false;
  const name = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return isIP(name) !== 0 || name === "localhost" || name === configuredHost.toLowerCase();
}

/**
 * Why a request for the inspector's data is refused, or `undefined`: a browser says where a request
 * comes from (`Sec-Fetch-Site`), and only the page itself, or a person typing the address, may read.
 */
export function crossSiteRefusal(headers: IncomingHttpHeaders): string | undefined {
  const site = header(headers, "sec-fetch-site");
  return site === undefined || site === "same-origin" || site === "none"
    ? undefined
    : "the inspector answers only its own page";
}

/**
 * Why an action (send, redeliver) is refused, or `undefined`. It must carry the inspector's own
 * header (a page elsewhere cannot send it without a preflight, which is never granted), a JSON body,
 * and, when a browser names an origin, the emulator's own.
 */
export function actionRefusal(headers: IncomingHttpHeaders): string | undefined {
  if (header(headers, ACTION_HEADER) === undefined) return `an action needs the ${ACTION_HEADER} header`;
  const type = header(headers, "content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    return "an action's body is JSON (content-type: application/json)";
  const origin = header(headers, "origin");
  if (origin !== undefined && origin !== `http://${header(headers, "host") ?? ""}`)
    return "an action must come from the inspector's own page";
  return crossSiteRefusal(headers);
}
