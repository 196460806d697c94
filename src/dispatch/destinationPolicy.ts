import { quote } from "../internal/describe.js";
import {
  type Cidr,
  cidrContains,
  classifyIpAddress,
  formatIpAddress,
  type IpAddress,
  isInternalHostName,
  parseCidr,
  parseIpAddress,
} from "../internal/ipAddress.js";
import { DispatchError } from "./DispatchError.js";
import type { CheckedLookup } from "./nodeTransport.js";
import type { WebhookDestinations } from "./WebhookDestinations.js";

/** The most addresses of one answer that are looked at: a resolver cannot make a check cost more. */
const MAX_ADDRESSES = 64;

/** The most entries `allow` may hold. */
const MAX_ALLOW = 1_000;

/** A host name pattern of `allow`: lowercase, no trailing dot; `*.domain` stored as `.domain`. */
const HOST_PATTERN = /^(\*\.)?([a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*)$/;

/** Why a URL is refused before anything is sent. */
export type UrlRefusal = "scheme" | "address";

/** The checked `destinations` option: what is allowed, and how names are resolved and checked. */
export interface DestinationPolicy {
  /** Checks what can be checked without resolving: the scheme, an address literal, a local-only name. */
  checkUrl(url: URL): UrlRefusal | undefined;
  /**
   * Resolves `hostname` (brackets removed) and returns the first allowed address; rejects with
   * `ERR_DISPATCH_DESTINATION_REFUSED` (the same words whatever the reason) when none is.
   */
  readonly lookup: CheckedLookup;
  /** Whether host names can be resolved here (an option, or the runtime's resolver). */
  readonly canResolve: boolean;
  /** Whether the option given a resolver of its own. */
  readonly ownResolver: boolean;
  /** Whether `allow` opens every address (the check is off). */
  readonly allowsEverything: boolean;
  readonly httpsOnly: boolean;
}

/**
 * The IPv4 address an IPv6 address carries, if it has one of the forms that reach IPv4: mapped
 * (`::ffff:a.b.c.d`), compatible (`::a.b.c.d`), translated (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::a.b.c.d`), 6to4 (`2002:aabb:ccdd::`) and Teredo (the client address, inverted).
 */
function embeddedIpv4(address: IpAddress): IpAddress | undefined {
  if (address.family !== 6) return undefined;
  const b = address.bytes;
  const zeros = (from: number, to: number) => b.subarray(from, to).every((byte) => byte === 0);
  const v4 = (bytes: ArrayLike<number>): IpAddress => ({ family: 4, bytes: Uint8Array.from(bytes) });
  const last = b.subarray(12, 16);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(last);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return v4(last);
  if (zeros(0, 12) && !zeros(12, 15)) return v4(last);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(last);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b.subarray(2, 6));
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0)
    return v4(Array.from(last, (byte) => byte ^ 0xff));
  return undefined;
}

/** The refusal of a destination: the same words for every reason, so an attempt reveals nothing of the target. */
export function destinationRefused(): DispatchError {
  return new DispatchError(
    "ERR_DISPATCH_DESTINATION_REFUSED",
    "the destination was refused: its host does not resolve to a public address, or one allowed by destinations.allow",
  );
}

const fail = (message: string): never => {
  throw new TypeError(`createWebhookDispatcher: destinations.${message}`);
};

/** The runtime's own resolver, reached without importing a Node module (Node, Deno and Bun have one). */
function systemResolver(): ((hostname: string) => Promise<readonly string[]>) | undefined {
  let dns:
    | {
        promises?: {
          lookup?: (
            hostname: string,
            options: { all: true; verbatim: true },
          ) => Promise<readonly { address: string }[]>;
        };
      }
    | undefined;
  try {
    const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
      .process?.getBuiltinModule;
    dns = typeof getBuiltinModule === "function" ? (getBuiltinModule("node:dns") as typeof dns) : undefined;
  } catch {
    return undefined;
  }
  const lookup = dns?.promises?.lookup;
  if (typeof lookup !== "function") return undefined;
  return async (hostname) =>
    (await lookup.call(dns?.promises, hostname, { all: true, verbatim: true })).map(({ address }) => address);
}

/** Checks the `destinations` option; a `TypeError` names what is wrong. */
export function createDestinationPolicy(options: WebhookDestinations | undefined): DestinationPolicy {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(
      "createWebhookDispatcher: destinations must be an object { allow?, httpsOnly?, resolve? }",
    );
  }
  const { allow = [], httpsOnly = false, resolve } = options ?? {};
  if (!Array.isArray(allow) || allow.length > MAX_ALLOW) {
    fail(`allow must be a list of at most ${MAX_ALLOW} CIDR ranges, addresses and host names`);
  }
  if (typeof httpsOnly !== "boolean") fail("httpsOnly must be true or false");
  if (resolve !== undefined && typeof resolve !== "function") {
    fail("resolve must be a function from a host name to a promise of its addresses");
  }
  const ranges: Cidr[] = [];
  const hosts = new Set<string>();
  const domains: string[] = [];
  for (const entry of allow as readonly unknown[]) {
    if (typeof entry !== "string") return fail("allow must hold strings");
    const range = parseCidr(entry);
    if (range !== undefined) {
      ranges.push(range);
      continue;
    }
    const name = entry.toLowerCase().replace(/\.$/, "");
    const match = name.length <= 253 ? HOST_PATTERN.exec(name) : null;
    if (match === null) {
      return fail(
        `allow: ${quote(entry.slice(0, 100))} is not a CIDR range ("10.0.0.0/8"), an address, a host name or "*.domain"`,
      );
    }
    if (match[1] === undefined) hosts.add(match[2]!);
    else domains.push(`.${match[2]!}`);
  }
  const resolver = resolve ?? systemResolver();
  const allowedName = (hostname: string): boolean => {
    const name = hostname.toLowerCase().replace(/\.$/, "");
    return hosts.has(name) || domains.some((domain) => name.endsWith(domain));
  };
  const allowedAddress = (address: IpAddress): boolean => {
    if (classifyIpAddress(address) === "public") return true;
    // An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4, …) reaches that IPv4 address:
    // only an IPv4 range allows it, so that "::/0" (every IPv6 address) does not open loopback.
    const inner = embeddedIpv4(address);
    if (inner !== undefined)
      return ranges.some((range) => range.address.family === 4 && cidrContains(range, inner));
    return ranges.some((range) => cidrContains(range, address));
  };
  const allowsEverything =
    ranges.some((range) => range.prefix === 0 && range.address.family === 4) &&
    ranges.some((range) => range.prefix === 0 && range.address.family === 6);

  const lookup: CheckedLookup = async (hostname) => {
    const literal = parseIpAddress(hostname);
    if (literal !== undefined) {
      if (!allowedAddress(literal)) throw destinationRefused();
      return { address: formatIpAddress(literal), family: literal.family };
    }
    const byName = allowedName(hostname);
    if (!byName && isInternalHostName(hostname)) throw destinationRefused();
    if (resolver === undefined) throw destinationRefused();
    let answer: readonly unknown[];
    try {
      const resolved: unknown = await resolver(hostname);
      if (!Array.isArray(resolved)) throw destinationRefused();
      answer = resolved;
    } catch {
      // Not resolvable and not allowed read the same: an attempt reveals nothing of internal names.
      throw destinationRefused();
    }
    for (const value of answer.slice(0, MAX_ADDRESSES)) {
      const address = typeof value === "string" ? parseIpAddress(value) : undefined;
      if (address === undefined) continue;
      if (byName || allowedAddress(address))
        return { address: formatIpAddress(address), family: address.family };
    }
    throw destinationRefused();
  };

  return {
    checkUrl(url) {
      if (url.protocol !== "https:" && (httpsOnly || url.protocol !== "http:")) return "scheme";
      const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
      if (allowedName(hostname)) return undefined;
      const literal = parseIpAddress(hostname);
      if (literal !== undefined) return allowedAddress(literal) ? undefined : "address";
      return isInternalHostName(hostname) ? "address" : undefined;
    },
    lookup,
    canResolve: resolver !== undefined,
    ownResolver: resolve !== undefined,
    allowsEverything,
    httpsOnly,
  };
}
