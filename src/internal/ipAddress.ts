/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

/** What an address is, for the dispatcher's destination check. */
export type AddressCategory =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "shared"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "reserved";

/** An address range: an address and a prefix length. */
export interface Cidr {
  readonly address: IpAddress;
  readonly prefix: number;
}

// Every literal, range or host name we accept is far shorter; longer input is refused before any work.
const MAX_LENGTH = 100;

/** Which ranges are what, first match wins; each table ends with a range that holds every address. */
const IPV4_RANGES: readonly (readonly [string, AddressCategory])[] = [
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "shared"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "reserved"],
  ["192.88.99.0/24", "reserved"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "reserved"],
  ["198.51.100.0/24", "reserved"],
  ["203.0.113.0/24", "reserved"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved"],
  ["0.0.0.0/0", "public"],
];

// An address that carries an IPv4 address (IPV4_CARRIERS) gets here only when that one is public.
const IPV6_RANGES: readonly (readonly [string, AddressCategory])[] = [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  // A socket to ::ffff:a.b.c.d reaches a.b.c.d itself; dual-stack lookups return public hosts this way.
  ["::ffff:0:0/96", "public"],
  ["64:ff9b::/96", "public"],
  ["64:ff9b:1::/48", "reserved"],
  ["100::/64", "reserved"],
  ["2001:2::/48", "reserved"],
  ["2001:10::/28", "reserved"],
  ["2001:20::/28", "reserved"],
  ["2001:db8::/32", "reserved"],
  ["3fff::/20", "reserved"],
  ["fc00::/7", "private"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "private"],
  ["ff00::/8", "multicast"],
  // IANA allocates only 2000::/3 as global unicast.
  ["2000::/3", "public"],
  ["::/0", "reserved"],
];

/** IPv6 ranges that carry an IPv4 address: the range, where its 4 bytes start, what they are XORed with. */
const IPV4_CARRIERS: readonly (readonly [string, number, number])[] = [
  ["::ffff:0:0/96", 12, 0], // IPv4-mapped
  ["::/96", 12, 0], // IPv4-compatible (deprecated); :: and ::1 are told apart before
  ["::ffff:0:0:0/96", 12, 0], // IPv4-translated (SIIT)
  ["64:ff9b::/96", 12, 0], // NAT64 well-known prefix
  ["2002::/16", 2, 0], // 6to4
  ["2001::/32", 12, 0xff], // Teredo client, its bits inverted
  ["2001::/32", 4, 0], // Teredo server
];

let compiledIpv4Ranges: readonly (readonly [Cidr, AddressCategory])[] | undefined;
let compiledIpv6Ranges: readonly (readonly [Cidr, AddressCategory])[] | undefined;
let compiledCarriers: readonly (readonly [Cidr, number, number])[] | undefined;

/** The tables above with their ranges parsed, on first use (nothing runs at import). */
function compile<T extends readonly unknown[]>(table: readonly (readonly [string, ...T])[]) {
  const compiled: (readonly [Cidr, ...T])[] = [];
  for (const [text, ...rest] of table) {
    const cidr = parseCidr(text);
    if (cidr) compiled.push([cidr, ...rest]);
  }
  return compiled;
}

/**
 * Parses an IP address literal; `undefined` when `text` is not one. IPv4 is read the way inet_aton and
 * the WHATWG URL parser read it: one to four dot-separated parts, each decimal, `0x` hex or
 * leading-`0` octal, the last part filling the bytes left (`2130706433`, `0x7f.1`, `0177.0.0.1`), and a
 * trailing dot. IPv6 may be bracketed, use `::`, end in a dotted IPv4 address and carry a zone id
 * (`fe80::1%eth0`, or `[fe80::1%25eth0]` as URLs encode it), which is dropped. An empty hex part
 * (`0x`), which the URL parser reads as 0 and glibc's inet_aton refuses, is refused. Text longer than
 * 100 characters is refused unread. Give it the URL parser's `hostname`, which has already undone
 * percent-encoding and full-width digits. Never throws.
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  if (typeof text !== "string" || text.length === 0 || text.length > MAX_LENGTH) return undefined;
  let bytes: Uint8Array | undefined;
  if (text.startsWith("[")) {
    bytes = text.endsWith("]") ? parseIpv6WithZone(text.slice(1, -1), true) : undefined;
  } else {
    bytes = text.includes(":") ? parseIpv6WithZone(text, false) : parseLegacyIpv4(text);
  }
  return bytes && { family: bytes.length === 4 ? 4 : 6, bytes };
}

/**
 * Classifies an address for the dispatcher's destination check (anything but `"public"` is refused
 * there). An IPv6 address that embeds an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, either address of Teredo `2001::/32`) takes the category of
 * the embedded address when that is not public, and otherwise that of its own range: an IPv4-mapped
 * or NAT64 address of a public IPv4 address is public, a deprecated IPv4-compatible or -translated
 * one reserved. IPv6 outside 2000::/3 and the ranges named here is reserved. An address whose byte
 * count does not fit its family is reserved.
 */
export function classifyIpAddress(address: IpAddress): AddressCategory {
  const { family, bytes } = address;
  if (family === 4 && bytes.length === 4) {
    compiledIpv4Ranges ??= compile(IPV4_RANGES);
    return categoryIn(compiledIpv4Ranges, address);
  }
  if (family !== 6 || bytes.length !== 16) return "reserved";
  // :: and ::1 lie in the IPv4-compatible range too, where they would read as 0.0.0.0 and 0.0.0.1.
  const isUnspecifiedOrLoopback = bytes.subarray(0, 15).every((byte) => byte === 0) && (bytes[15] ?? 0) <= 1;
  if (!isUnspecifiedOrLoopback) {
    compiledCarriers ??= compile(IPV4_CARRIERS);
    for (const [carrier, offset, mask] of compiledCarriers) {
      if (!cidrContains(carrier, address)) continue;
      const embedded = bytes.slice(offset, offset + 4).map((byte) => byte ^ mask);
      const category = classifyIpAddress({ family: 4, bytes: embedded });
      if (category !== "public") return category;
    }
  }
  compiledIpv6Ranges ??= compile(IPV6_RANGES);
  return categoryIn(compiledIpv6Ranges, address);
}

function categoryIn(ranges: readonly (readonly [Cidr, AddressCategory])[], address: IpAddress) {
  for (const [range, category] of ranges) if (cidrContains(range, address)) return category;
  return "reserved";
}

/**
 * Parses an address range: `10.0.0.0/8`, `fd00::/8`, or a bare address (a /32 or /128); `undefined`
 * when invalid. Bits set below the prefix are allowed and cleared (`10.1.2.3/8` is `10.0.0.0/8`).
 * Stricter than {@link parseIpAddress}, as a range is configuration: IPv4 must be four decimal
 * parts without leading zeros (`10/8` would otherwise be 0.0.0.10/8), IPv6 without brackets or zone,
 * the prefix plain decimal. Never throws.
 */
export function parseCidr(text: string): Cidr | undefined {
  if (typeof text !== "string" || text.length > MAX_LENGTH) return undefined;
  const slash = text.indexOf("/");
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? undefined : text.slice(slash + 1);
  const bytes = addressText.includes(":") ? parseIpv6(addressText) : parseDottedQuad(addressText);
  if (!bytes) return undefined;
  const bits = bytes.length * 8;
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
    prefix = Number(prefixText);
    if (prefix > bits) return undefined;
  }
  for (let bit = prefix; bit < bits; bit++) bytes[bit >> 3] = (bytes[bit >> 3] ?? 0) & ~(0x80 >> (bit & 7));
  return { address: { family: bytes.length === 4 ? 4 : 6, bytes }, prefix };
}

/**
 * Whether the range holds the address: its first `prefix` bits are the range's. Across families, an
 * IPv4 range holds the IPv4-mapped spelling of its addresses (`10.0.0.0/8` holds `::ffff:10.1.2.3`),
 * and an IPv6 range inside `::ffff:0:0/96` holds the IPv4 addresses it maps (`::ffff:10.0.0.0/104`
 * holds `10.1.2.3`); a wider IPv6 range such as `::/0` holds no IPv4 address. Never throws.
 */
export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  let range = cidr.address.bytes;
  let prefix = cidr.prefix;
  let bytes = address.bytes;
  if (range.length === 4 && bytes.length === 16) {
    if (!isIpv4Mapped(bytes)) return false;
    bytes = bytes.subarray(12);
  } else if (range.length === 16 && bytes.length === 4) {
    if (prefix < 96 || !isIpv4Mapped(range)) return false;
    range = range.subarray(12);
    prefix -= 96;
  }
  if (
    range.length !== bytes.length ||
    !(Number.isInteger(prefix) && prefix >= 0 && prefix <= range.length * 8)
  ) {
    return false;
  }
  const whole = Math.floor(prefix / 8);
  for (let i = 0; i < whole; i++) if (range[i] !== bytes[i]) return false;
  const rest = prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (((range[whole] ?? 0) ^ (bytes[whole] ?? 0)) & mask) === 0;
}

/**
 * The canonical text of an address: dotted decimal for IPv4; for IPv6 the RFC 5952 form (lowercase hex
 * without leading zeros, the longest run of two or more zero groups written `::`, the first on a tie),
 * with an IPv4-mapped address written `::ffff:1.2.3.4`. The WHATWG URL serializer writes that last one
 * in hex (`[::ffff:102:304]`) and agrees on everything else. Never throws.
 */
export function formatIpAddress(address: IpAddress): string {
  const { bytes } = address;
  if (address.family === 4) return formatDottedQuad(bytes);
  if (isIpv4Mapped(bytes)) return `::ffff:${formatDottedQuad(bytes.subarray(12))}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end + 1;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((group) => group.toString(16))
      .join(":");
  return bestStart < 0 ? hex(0, 8) : `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

const INTERNAL_SUFFIXES = ["localhost", "internal", "local", "localdomain", "home.arpa"];

/**
 * Whether a host name can only mean this machine or the local network by its name alone: `localhost`
 * and names under it, and names ending in `.internal` (cloud metadata such as `metadata.google.internal`),
 * `.local` (mDNS), `.localdomain` or `.home.arpa`, and those suffixes themselves. Case-insensitive; one
 * trailing dot is ignored. Give it the URL parser's `hostname`: it does not undo percent-encoding or
 * IDNA mapping. A name not listed may still resolve to an internal address, so resolved addresses
 * need {@link classifyIpAddress} too. Never throws.
 */
export function isInternalHostName(hostname: string): boolean {
  if (typeof hostname !== "string") return false;
  const name = (hostname.endsWith(".") ? hostname.slice(0, -1) : hostname).toLowerCase();
  return INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

function isIpv4Mapped(bytes: Uint8Array): boolean {
  return (
    bytes.length === 16 &&
    bytes.subarray(0, 10).every((byte) => byte === 0) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff
  );
}

function formatDottedQuad(bytes: Uint8Array): string {
  return `${bytes[0] ?? 0}.${bytes[1] ?? 0}.${bytes[2] ?? 0}.${bytes[3] ?? 0}`;
}

/** IPv4 as the WHATWG URL parser reads a host that ends in a number (minus the empty `0x` part). */
function parseLegacyIpv4(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length > 4) return undefined;
  let value = 0;
  for (const [index, part] of parts.entries()) {
    const number = parseIpv4Number(part);
    if (number === undefined) return undefined;
    if (index < parts.length - 1) {
      if (number > 0xff) return undefined;
      value = value * 0x100 + number;
    } else {
      const limit = 0x100 ** (5 - parts.length);
      if (number >= limit) return undefined;
      value = value * limit + number;
    }
  }
  return Uint8Array.of(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}

/** One part of a legacy IPv4 address: decimal, `0x` hex or leading-`0` octal; large values stay large. */
function parseIpv4Number(part: string): number | undefined {
  let radix = 10;
  let start = 0;
  if (part.length >= 2 && part[0] === "0") {
    [radix, start] = part[1] === "x" || part[1] === "X" ? [16, 2] : [8, 1];
  }
  if (start === part.length) return undefined;
  let value = 0;
  for (let i = start; i < part.length; i++) {
    const digit = Number.parseInt(part.charAt(i), 16);
    if (!(digit < radix)) return undefined;
    value = value * radix + digit;
  }
  return value;
}

/** Four decimal parts of 0 to 255 without leading zeros, as in an IPv6 tail (where `010` is ambiguous). */
function parseDottedQuad(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 0xff) return undefined;
    bytes[index] = Number(part);
  }
  return bytes;
}

/** IPv6 with an optional zone id; inside brackets the `%` may come percent-encoded as `%25`. */
function parseIpv6WithZone(text: string, bracketed: boolean): Uint8Array | undefined {
  const percent = text.indexOf("%");
  if (percent < 0) return parseIpv6(text);
  let zone = text.slice(percent + 1);
  if (bracketed && zone.startsWith("25") && zone.length > 2) zone = zone.slice(2);
  return /^[A-Za-z0-9._~-]+$/.test(zone) ? parseIpv6(text.slice(0, percent)) : undefined;
}

/** IPv6 text (RFC 4291 section 2.2): eight groups, or fewer around one `::` that stands for at least one. */
function parseIpv6(text: string): Uint8Array | undefined {
  const groups: number[] = [];
  let compressAt = -1;
  let i = 0;
  if (text.startsWith("::")) {
    compressAt = 0;
    i = 2;
  } else if (text.startsWith(":")) {
    return undefined;
  }
  while (i < text.length) {
    const start = i;
    while (i < text.length && /[0-9A-Fa-f]/.test(text.charAt(i))) i++;
    if (text.charAt(i) === ".") {
      const tail = groups.length <= 6 ? parseDottedQuad(text.slice(start)) : undefined;
      if (!tail) return undefined;
      groups.push(((tail[0] ?? 0) << 8) | (tail[1] ?? 0), ((tail[2] ?? 0) << 8) | (tail[3] ?? 0));
      break;
    }
    if (i === start || i - start > 4 || groups.length === 8) return undefined;
    groups.push(Number.parseInt(text.slice(start, i), 16));
    if (i === text.length) break;
    if (text.charAt(i) !== ":") return undefined;
    i++;
    if (text.charAt(i) === ":") {
      if (compressAt >= 0) return undefined;
      compressAt = groups.length;
      i++;
    } else if (i === text.length) {
      return undefined;
    }
  }
  if (compressAt < 0 ? groups.length !== 8 : groups.length > 7) return undefined;
  const zeros: number[] = new Array(8 - groups.length).fill(0);
  const all =
    compressAt < 0 ? groups : [...groups.slice(0, compressAt), ...zeros, ...groups.slice(compressAt)];
  const bytes = new Uint8Array(16);
  for (const [index, group] of all.entries()) {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  }
  return bytes;
}
