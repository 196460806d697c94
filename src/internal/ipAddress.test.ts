import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AddressCategory,
  type Cidr,
  cidrContains,
  classifyIpAddress,
  formatIpAddress,
  type IpAddress,
  isInternalHostName,
  parseCidr,
  parseIpAddress,
} from "./ipAddress.js";

function parsed(text: string): IpAddress {
  const address = parseIpAddress(text);
  if (!address) throw new Error(`${text} should parse`);
  return address;
}

function cidr(text: string): Cidr {
  const range = parseCidr(text);
  if (!range) throw new Error(`${text} should parse`);
  return range;
}

/** What the WHATWG URL parser makes of a host, or undefined when the URL is invalid. */
function urlHostname(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/** The address `delta` away from `text`, through BigInt: independent of the code under test. */
function step(text: string, delta: number): IpAddress {
  const { family, bytes } = parsed(text);
  let value = BigInt(`0x${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`);
  value += BigInt(delta);
  const next = new Uint8Array(bytes.length);
  for (let i = next.length - 1; i >= 0; i--, value >>= 8n) next[i] = Number(value & 0xffn);
  return { family, bytes: next };
}

const mappedBytes = (ipv4: Uint8Array) => Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...ipv4);
const groupsToBytes = (groups: readonly number[]) =>
  Uint8Array.from(groups.flatMap((group) => [group >> 8, group & 0xff]));

describe("parseIpAddress", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0X7F.0.0.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0251.0376.0251.0376", "169.254.169.254"],
    ["127.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["10.1.65535", "10.1.255.255"],
    ["1.16777215", "1.255.255.255"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["00", "0.0.0.0"],
    ["0x0", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
    ["0xffffffff", "255.255.255.255"],
    ["037777777777", "255.255.255.255"],
    ["0x00000000000000007f000001", "127.0.0.1"],
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["::", "::"],
    ["[::]", "::"],
    ["0:0:0:0:0:0:0:0", "::"],
    ["::ffff:127.0.0.1", "::ffff:127.0.0.1"],
    ["[::ffff:7f00:1]", "::ffff:127.0.0.1"],
    ["[::FFFF:A9FE:A9FE]", "::ffff:169.254.169.254"],
    ["64:ff9b::10.0.0.1", "64:ff9b::a00:1"],
    ["::1.2.3.4", "::102:304"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"],
    ["fe80::1%eth0", "fe80::1"],
    ["fe80::1%1", "fe80::1"],
    ["[fe80::1%25eth0]", "fe80::1"],
    ["[fe80::1%eth0]", "fe80::1"],
    ["FE80::ABCD", "fe80::abcd"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["1:0:0:2:0:0:3:4", "1::2:0:0:3:4"],
    ["1::", "1::"],
    ["1::1", "1::1"],
  ])("reads %s as %s", (text, canonical) => {
    expect(formatIpAddress(parsed(text))).toBe(canonical);
  });

  it.each([
    "1.2.3.4.5",
    "256.0.0.1",
    "1..2.3",
    ":::",
    "1::2::3",
    "12345::",
    "[::1",
    "::1]",
    "0x",
    "0X",
    "0x.0x.0x.0x",
    "",
    " 1.2.3.4",
    "1.2.3.4 ",
    "1.2.3.256",
    "1.2.65536",
    "1.16777216",
    "4294967296",
    "0x100000000",
    "08",
    "09.0.0.1",
    "0xg",
    "1.2.3.-4",
    "+1.2.3.4",
    ".",
    ".1.2.3",
    "127.0.0.1..",
    "1.2.3.4/8",
    "1.2.3.4%eth0",
    "[127.0.0.1]",
    "[]",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "1:2:3:4::5:6:7:8",
    ":1::",
    "1::2:",
    ":",
    "::ffff:127.0.0.01",
    "::ffff:0177.0.0.1",
    "::ffff:127.0.0",
    "::ffff:1.2.3.4.5",
    "::1.2.3.4:5",
    "1:2:3:4:5:6:7:1.2.3.4",
    "fe80::1%",
    "[fe80::1%]",
    "fe80::1%eth 0",
    "[::1]:80",
    "１２７.０.０.１",
    "%31%32%37.0.0.1",
    `0x${"0".repeat(91)}7f000001`,
  ])("refuses %j", (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });

  it("refuses long input unread", () => {
    expect(parseIpAddress("1".repeat(1_000_000))).toBeUndefined();
    expect(parseIpAddress(`[${"1:".repeat(500_000)}]`)).toBeUndefined();
    expect(parseCidr(`${"1.".repeat(500_000)}/8`)).toBeUndefined();
  });

  it("differs from the WHATWG URL parser only where it refuses, never on what an accepted spelling means", () => {
    // The URL parser reads an empty hex part as 0, and takes any length: `0x` is 0.0.0.0 there.
    expect(urlHostname("0x")).toBe("0.0.0.0");
    expect(urlHostname(`0x${"0".repeat(91)}7f000001`)).toBe("127.0.0.1");
    // It undoes percent-encoding and maps full-width digits before reading the number: hand it the
    // raw host and classify its `hostname`, not the text the user typed.
    expect(urlHostname("%31%32%37.0.0.1")).toBe("127.0.0.1");
    expect(urlHostname("１２７.０.０.１")).toBe("127.0.0.1");
    // It writes IPv4-mapped addresses in hex; RFC 5952 prefers the dotted tail.
    expect(urlHostname("[::ffff:127.0.0.1]")).toBe("[::ffff:7f00:1]");
    // Zone ids are not allowed in URLs at all.
    expect(urlHostname("[fe80::1%25eth0]")).toBeUndefined();
  });

  it("agrees with the WHATWG URL parser on generated legacy IPv4 spellings", () => {
    const part = fc.record({
      base: fc.constantFrom("decimal", "octal", "hex"),
      zeros: fc.nat(2),
      upperPrefix: fc.boolean(),
      upperDigits: fc.boolean(),
    });
    type Part = typeof part extends fc.Arbitrary<infer T> ? T : never;
    const spell = (value: number, { base, zeros, upperPrefix, upperDigits }: Part) => {
      if (base === "decimal") return String(value);
      if (base === "octal") return `0${"0".repeat(zeros)}${value.toString(8)}`;
      const digits = value.toString(16);
      return `${upperPrefix ? "0X" : "0x"}${"0".repeat(zeros)}${upperDigits ? digits.toUpperCase() : digits}`;
    };
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(part, { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (bytes, count, parts, trailingDot) => {
          const leading = [...bytes.subarray(0, count - 1)];
          const last = [...bytes.subarray(count - 1)].reduce((value, byte) => value * 256 + byte, 0);
          const spelling = [...leading, last]
            .map((value, i) => spell(value, parts[i] ?? parts[0]!))
            .join(".");
          const text = trailingDot ? `${spelling}.` : spelling;
          const address = parseIpAddress(text);
          expect(address?.bytes).toEqual(bytes);
          expect(urlHostname(text)).toBe(formatIpAddress(address!));
          expect(formatIpAddress(address!)).toBe(bytes.join("."));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("agrees with the WHATWG URL parser on fast-check's own IPv4 spellings", () => {
    fc.assert(
      fc.property(fc.ipV4Extended(), (text) => {
        expect(urlHostname(text)).toBe(formatIpAddress(parsed(text)));
      }),
    );
  });

  it("accepts what the WHATWG URL parser reads as IPv4 and nothing it does not, among short digit strings", () => {
    const unit = fc.constantFrom("0", "1", "7", "8", "9", "f", "x", "X", ".");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (text) => {
        const address = parseIpAddress(text);
        const hostname = urlHostname(text);
        if (address) expect(hostname).toBe(formatIpAddress(address));
        else if (hostname !== undefined && /^\d+\.\d+\.\d+\.\d+$/.test(hostname)) {
          // The one spelling refused on purpose: an empty hex part.
          expect(text.split(".").some((part) => /^0x$/i.test(part))).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("accepts exactly the bracketed IPv6 hosts the WHATWG URL parser accepts, among short strings", () => {
    const characters = fc.string({
      unit: fc.constantFrom("0", "1", "f", "F", "a", ":", ":", "."),
      maxLength: 24,
    });
    // Whole pieces, near misses among them, reach dotted tails and long groups that characters rarely do.
    const pieces = [
      "0",
      "1",
      "f",
      "F",
      "ffff",
      "00000",
      ":",
      ":",
      "::",
      ".",
      "1.2.3.4",
      "0.0.0.0",
      "01",
      "256",
    ];
    const tokens = fc.string({ unit: fc.constantFrom(...pieces), maxLength: 14 });
    fc.assert(
      fc.property(fc.oneof(characters, tokens), (text) => {
        const address = parseIpAddress(`[${text}]`);
        const hostname = urlHostname(`[${text}]`);
        expect(address !== undefined).toBe(hostname !== undefined);
        if (address && hostname) expect(parsed(hostname).bytes).toEqual(address.bytes);
      }),
      { numRuns: 5000 },
    );
  });

  const group = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
  const ipv6Groups = fc.oneof(
    fc.array(group, { minLength: 8, maxLength: 8 }),
    fc.array(group, { minLength: 2, maxLength: 2 }).map((tail) => [0, 0, 0, 0, 0, 0xffff, ...tail]),
  );

  it("writes generated IPv6 addresses as the WHATWG URL serializer does, and reads them back", () => {
    fc.assert(
      fc.property(ipv6Groups, (groups) => {
        const address: IpAddress = { family: 6, bytes: groupsToBytes(groups) };
        const text = formatIpAddress(address);
        expect(parseIpAddress(text)).toEqual(address);
        const hostname = urlHostname(`[${text}]`);
        if (text.includes(".")) expect(parsed(hostname!)).toEqual(address);
        else expect(hostname).toBe(`[${text}]`);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads generated IPv6 spellings (any zero run compressed, any case, padded, dotted tails) as the URL parser does", () => {
    const choices = fc.record({
      run: fc.nat(4),
      upper: fc.boolean(),
      pads: fc.array(fc.nat(3), { minLength: 8, maxLength: 8 }),
      tail: fc.boolean(),
    });
    fc.assert(
      fc.property(ipv6Groups, choices, (groups, { run, upper, pads, tail }) => {
        const runs: [number, number][] = [];
        for (let start = 0; start < 8; start++) {
          let end = start;
          while (groups[end] === 0) end++;
          if (end > start) runs.push([start, end]);
          start = end;
        }
        const compressed = runs[run];
        const withTail = tail && (!compressed || compressed[1] <= 6);
        const pieces = groups.map((value, i) => {
          const hex = value.toString(16);
          const padded = hex.padStart(Math.min(4, hex.length + (pads[i] ?? 0)), "0");
          return upper ? padded.toUpperCase() : padded;
        });
        if (withTail) pieces.splice(6, 2, [...groupsToBytes(groups).subarray(12)].join("."));
        const text = compressed
          ? `${pieces.slice(0, compressed[0]).join(":")}::${pieces.slice(compressed[1]).join(":")}`
          : pieces.join(":");
        const address = parsed(text);
        expect(address.bytes).toEqual(groupsToBytes(groups));
        expect(parsed(urlHostname(`[${text}]`)!)).toEqual(address);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with fast-check's own IPv6 spellings", () => {
    fc.assert(
      fc.property(fc.ipV6(), (text) => {
        expect(parsed(urlHostname(`[${text}]`)!)).toEqual(parsed(text));
      }),
    );
  });

  it("never throws, for any string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" })), (text) => {
        const address = parseIpAddress(text);
        if (address) expect(typeof classifyIpAddress(address)).toBe("string");
        parseCidr(text);
        isInternalHostName(text);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("classifyIpAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["[::1]", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["169.254.169.254", "link-local"],
    ["[fd00:ec2::254]", "private"],
    ["100.100.100.200", "shared"],
    ["10.0.0.5", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["2130706433", "loopback"],
    ["0x7f.0.0.1", "loopback"],
    ["0251.0376.0251.0376", "link-local"],
    ["[::ffff:169.254.169.254]", "link-local"],
    ["[::ffff:7f00:1]", "loopback"],
    ["[::]", "unspecified"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
  ] as const satisfies readonly (readonly [string, AddressCategory])[])(
    "refuses %s as %s",
    (text, category) => {
      expect(classifyIpAddress(parsed(text))).toBe(category);
    },
  );

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2a00:1450::1",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
  ])("lets %s through as public", (text) => {
    expect(classifyIpAddress(parsed(text))).toBe("public");
  });

  // Each range: its first and last address, and the categories of the addresses just outside.
  it.each([
    ["0.0.0.0", "0.255.255.255", "unspecified", undefined, "public"],
    ["10.0.0.0", "10.255.255.255", "private", "public", "public"],
    ["100.64.0.0", "100.127.255.255", "shared", "public", "public"],
    ["127.0.0.0", "127.255.255.255", "loopback", "public", "public"],
    ["169.254.0.0", "169.254.255.255", "link-local", "public", "public"],
    ["172.16.0.0", "172.31.255.255", "private", "public", "public"],
    ["192.0.0.0", "192.0.0.255", "reserved", "public", "public"],
    ["192.0.2.0", "192.0.2.255", "reserved", "public", "public"],
    ["192.88.99.0", "192.88.99.255", "reserved", "public", "public"],
    ["192.168.0.0", "192.168.255.255", "private", "public", "public"],
    ["198.18.0.0", "198.19.255.255", "reserved", "public", "public"],
    ["198.51.100.0", "198.51.100.255", "reserved", "public", "public"],
    ["203.0.113.0", "203.0.113.255", "reserved", "public", "public"],
    ["224.0.0.0", "239.255.255.255", "multicast", "public", "reserved"],
    ["240.0.0.0", "255.255.255.254", "reserved", "multicast", "broadcast"],
    ["255.255.255.255", "255.255.255.255", "broadcast", "reserved", undefined],
    ["::", "::", "unspecified", undefined, "loopback"],
    ["::1", "::1", "loopback", "unspecified", "unspecified"], // ::2 is IPv4-compatible 0.0.0.2
    ["fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private", "reserved", "reserved"],
    ["fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "link-local", "reserved", "private"],
    ["fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private", "link-local", "multicast"],
    ["ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "multicast", "private", undefined],
    ["100::", "100::ffff:ffff:ffff:ffff", "reserved", "reserved", "reserved"],
    ["64:ff9b:1::", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "reserved", "reserved", "reserved"],
    ["2000::", "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "public", "reserved", "reserved"],
    ["2001:2::", "2001:2:0:ffff:ffff:ffff:ffff:ffff", "reserved", "public", "public"],
    ["2001:10::", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "public", "reserved"],
    ["2001:20::", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "reserved", "public"],
    ["2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "public", "public"],
    ["3fff::", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "public", "public"],
    ["4000::", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "public", "private"],
  ] as const)(
    "%s to %s is %s, the address before it %s, after it %s",
    (first, last, category, before, after) => {
      expect(classifyIpAddress(parsed(first))).toBe(category);
      expect(classifyIpAddress(parsed(last))).toBe(category);
      if (before) expect(classifyIpAddress(step(first, -1))).toBe(before);
      if (after) expect(classifyIpAddress(step(last, 1))).toBe(after);
    },
  );

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::ffff:255.255.255.255", "broadcast"],
    ["::127.0.0.1", "loopback"], // IPv4-compatible
    ["::10.0.0.1", "private"],
    ["::8.8.8.8", "reserved"],
    ["::ffff:0:127.0.0.1", "loopback"], // IPv4-translated
    ["::ffff:0:8.8.8.8", "reserved"],
    ["64:ff9b::127.0.0.1", "loopback"], // NAT64
    ["64:ff9b::169.254.169.254", "link-local"],
    ["64:ff9b:1::a9fe:a9fe", "reserved"],
    ["2002:7f00:1::", "loopback"], // 6to4
    ["2002:a9fe:a9fe::1", "link-local"],
    ["2002:c0a8:101::", "private"],
    ["2002:808:808::1", "public"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"], // RFC 4380's Teredo example: client 192.0.2.45
    ["2001:0:808:808::80ff:fffe", "loopback"], // Teredo client 127.0.0.1
    ["2001:0:a00:1::f7f7:f7f7", "private"], // Teredo server 10.0.0.1
    ["2001:0:808:808::f7f7:f7f7", "public"], // Teredo, both ends 8.8.8.8
  ] as const)("classifies %s, which carries an IPv4 address, as %s", (text, category) => {
    expect(classifyIpAddress(parsed(text))).toBe(category);
  });

  it("classifies an IPv4-mapped address as its IPv4 address, and NAT64 and 6to4 ones by it when not public", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 4 }), (ipv4) => {
        const category = classifyIpAddress({ family: 4, bytes: ipv4 });
        expect(classifyIpAddress({ family: 6, bytes: mappedBytes(ipv4) })).toBe(category);
        const nat64 = Uint8Array.of(0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, ...ipv4);
        const sixToFour = Uint8Array.of(0x20, 0x02, ...ipv4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
        for (const bytes of [nat64, sixToFour]) {
          const carried = classifyIpAddress({ family: 6, bytes });
          expect(carried).toBe(category === "public" ? "public" : category);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("calls an address whose bytes do not fit its family reserved", () => {
    expect(classifyIpAddress({ family: 4, bytes: new Uint8Array(16) })).toBe("reserved");
    expect(classifyIpAddress({ family: 6, bytes: Uint8Array.of(8, 8, 8, 8) })).toBe("reserved");
  });
});

describe("formatIpAddress", () => {
  it("never throws on an address whose bytes do not fit its family", () => {
    expect(formatIpAddress({ family: 4, bytes: new Uint8Array(0) })).toBe("0.0.0.0");
    expect(formatIpAddress({ family: 6, bytes: Uint8Array.of(1, 2) })).toBe("102::");
  });
});

describe("parseCidr", () => {
  it.each([
    ["10.0.0.0/8", 4, "10.0.0.0", 8],
    ["10.1.2.3/8", 4, "10.0.0.0", 8],
    ["0.0.0.0/0", 4, "0.0.0.0", 0],
    ["1.2.3.4", 4, "1.2.3.4", 32],
    ["1.2.3.4/32", 4, "1.2.3.4", 32],
    ["fd00::/8", 6, "fd00::", 8],
    ["fd12:3456::1/7", 6, "fc00::", 7],
    ["::/0", 6, "::", 0],
    ["::1", 6, "::1", 128],
    ["::ffff:0:0/96", 6, "::ffff:0.0.0.0", 96],
  ] as const)("reads %s", (text, family, address, prefix) => {
    const range = cidr(text);
    expect(range.address.family).toBe(family);
    expect(formatIpAddress(range.address)).toBe(address);
    expect(range.prefix).toBe(prefix);
  });

  it.each([
    "",
    "/8",
    "10.0.0.0/",
    "10.0.0.0/33",
    "::/129",
    "10.0.0.0/8/8",
    "10.0.0.0/-1",
    "10.0.0.0/ 8",
    "10.0.0.0/08",
    "10.0.0.0/1e1",
    "10/8",
    "010.0.0.0/8",
    "0x0a000000/8",
    "[::1]/128",
    "fe80::1%eth0/64",
    "10.0.0.0/8 ",
  ])("refuses %j", (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });
});

describe("cidrContains", () => {
  it.each([
    ["10.0.0.0/8", "10.0.0.0", true],
    ["10.0.0.0/8", "10.255.255.255", true],
    ["10.0.0.0/8", "11.0.0.0", false],
    ["10.0.0.0/8", "9.255.255.255", false],
    ["172.16.0.0/12", "172.31.0.1", true],
    ["172.16.0.0/12", "172.32.0.1", false],
    ["0.0.0.0/0", "255.255.255.255", true],
    ["fd00::/8", "fd00:ec2::254", true],
    ["fd00::/8", "fc00::1", false],
    ["10.0.0.0/8", "::ffff:10.1.2.3", true],
    ["10.0.0.0/8", "::10.1.2.3", false],
    ["::ffff:10.0.0.0/104", "10.1.2.3", true],
    ["::ffff:0:0/96", "8.8.8.8", true],
    ["::/0", "8.8.8.8", false],
    ["::/0", "::ffff:8.8.8.8", true],
    ["0.0.0.0/0", "::1", false],
    ["0.0.0.0/0", "2001:db8::1", false],
  ] as const)("%s holds %s: %s", (range, address, expected) => {
    expect(cidrContains(cidr(range), parsed(address))).toBe(expected);
  });

  /** Bit by bit, with IPv4 taken into IPv6 space as ::ffff:a.b.c.d. */
  function referenceContains(range: Cidr, address: IpAddress): boolean {
    const bit = (bytes: Uint8Array, i: number) => ((bytes[i >> 3] ?? 0) >> (7 - (i % 8))) & 1;
    if (range.address.family === 6 && address.family === 4 && range.prefix < 96) return false;
    const from = range.address.family === 4 ? mappedBytes(range.address.bytes) : range.address.bytes;
    const to = address.family === 4 ? mappedBytes(address.bytes) : address.bytes;
    const bits = range.prefix + (range.address.family === 4 ? 96 : 0);
    for (let i = 0; i < bits; i++) if (bit(from, i) !== bit(to, i)) return false;
    return true;
  }

  it("agrees with a bit-by-bit reference", () => {
    const ipv4 = fc
      .uint8Array({ minLength: 4, maxLength: 4 })
      .map((bytes): IpAddress => ({ family: 4, bytes }));
    const ipv6 = fc.oneof(
      fc.uint8Array({ minLength: 16, maxLength: 16 }),
      fc.uint8Array({ minLength: 4, maxLength: 4 }).map(mappedBytes),
    );
    const address = fc.oneof(
      ipv4,
      ipv6.map((bytes): IpAddress => ({ family: 6, bytes })),
    );
    fc.assert(
      fc.property(
        address,
        fc.nat(128),
        address,
        fc.nat(127),
        fc.boolean(),
        (base, rawPrefix, other, flip, near) => {
          const prefix = rawPrefix % (base.bytes.length * 8 + 1);
          const range = cidr(`${formatIpAddress(base)}/${prefix}`);
          // Half the time the address is the range's own with one bit flipped, so both answers come up.
          const bytes = Uint8Array.from(base.bytes);
          const index = flip % (bytes.length * 8);
          bytes[index >> 3] = (bytes[index >> 3] ?? 0) ^ (0x80 >> (index % 8));
          const probe: IpAddress = near ? { family: base.family, bytes } : other;
          expect(cidrContains(range, probe)).toBe(referenceContains(range, probe));
          expect(cidrContains(range, base)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("isInternalHostName", () => {
  it.each([
    "localhost",
    "LOCALHOST",
    "localhost.",
    "api.localhost",
    "metadata.google.internal",
    "METADATA.GOOGLE.INTERNAL.",
    "internal",
    "printer.local",
    "host.localdomain",
    "localhost.localdomain",
    "nas.home.arpa",
    "home.arpa",
  ])("%s is internal", (name) => {
    expect(isInternalHostName(name)).toBe(true);
  });

  it.each([
    "example.com",
    "localhost.example.com",
    "mylocalhost",
    "internal.example.com",
    "notinternal",
    "example.local.com",
    "home-arpa",
    "localhost..",
    "",
    ".",
    "127.0.0.1",
  ])("%j is not internal by its name", (name) => {
    expect(isInternalHostName(name)).toBe(false);
  });

  it("takes linear time on long names", () => {
    expect(isInternalHostName(`${"a.".repeat(500_000)}local`)).toBe(true);
  });
});
