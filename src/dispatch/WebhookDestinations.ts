/**
 * Where the dispatcher may send webhooks. By default it refuses every destination whose address is
 * loopback, private, link-local (the cloud metadata addresses included), shared (100.64.0.0/10),
 * unspecified, multicast, broadcast or reserved, in any spelling (decimal `2130706433`, hex
 * `0x7f.0.0.1`, octal, IPv4-mapped or other IPv6 forms that embed an IPv4 address), and the host
 * names that can only be local (`localhost`, `*.localhost`, `*.internal`, `*.local`,
 * `*.localdomain`, `*.home.arpa`). Address literals are refused when the endpoint is read; host
 * names are refused on the address they resolve to, when the attempt connects (see the guide).
 *
 * - `allow` opens exceptions: address ranges in CIDR notation (`"10.0.0.0/8"`, `"fd00::/8"`), single
 *   addresses (`"127.0.0.1"`), host names (`"hooks.corp.example"`) and every name under a domain
 *   (`"*.corp.example"`). `["0.0.0.0/0", "::/0"]` turns the address check off: only for an egress
 *   that is already confined (an egress proxy that refuses internal addresses, a platform that
 *   cannot reach them);
 * - `httpsOnly` refuses `http:` URLs;
 * - `resolve` resolves a host name to its addresses (by default the system resolver, where the
 *   runtime has one). It is how a test maps names to addresses, and how a runtime without a
 *   resolver gets one.
 *
 * Exported from `messaging-events/dispatch`.
 *
 * @example
 * ```ts
 * import type { WebhookDestinations } from "messaging-events/dispatch";
 *
 * // Customers' URLs only, plus one receiver on the company network.
 * const destinations: WebhookDestinations = {
 *   allow: ["10.20.0.0/16", "hooks.corp.example"],
 *   httpsOnly: true,
 * };
 * ```
 */
export interface WebhookDestinations {
  /**
   * Exceptions to the refusal of internal destinations: CIDR ranges, addresses, host names and
   * `*.domain` wildcards.
   * @default []
   */
  readonly allow?: readonly string[];
  /**
   * Refuses `http:` URLs: every endpoint must be `https:`.
   * @default false
   */
  readonly httpsOnly?: boolean;
  /**
   * Resolves a host name to its IP addresses (any order; the first allowed one is used).
   * @default the system resolver (node:dns `lookup`) where the runtime has one
   */
  readonly resolve?: (hostname: string) => Promise<readonly string[]>;
}
