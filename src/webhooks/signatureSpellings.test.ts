/**
 * One MAC, four spellings: lowercase hex, uppercase hex, canonical padded base64 and canonical
 * unpadded base64url verify, to the same normalised signature; every other string that decodes to
 * the same bytes (mixed-case hex, non-zero unused bits, other padding) is malformed, so a header
 * can be a de-duplication key.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeVerifyWebhookSignature } from "./index.js";

const secret = "whsec_spellings";
const timestamp = "2026-11-22T18:00:00.000Z";
const now = Date.parse(timestamp);
const body = '{"type":"s.room.close","version":2,"content":{}}';
const key = await crypto.subtle.importKey(
  "raw",
  new TextEncoder().encode(secret),
  { name: "HMAC", hash: "SHA-512" },
  false,
  ["sign"],
);
const mac = Buffer.from(
  await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}:${body}`)),
);
const hex = mac.toString("hex");

const verify = (signature: string) =>
  safeVerifyWebhookSignature({
    body,
    headers: { "service-timestamp": timestamp, "service-signature": signature },
    secret,
    now,
  });

/** The four accepted spellings of a MAC. */
const spellings = (bytes: Buffer) => [
  bytes.toString("hex"),
  bytes.toString("hex").toUpperCase(),
  bytes.toString("base64"),
  bytes.toString("base64url"),
];

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Sets the unused low bits of the last data character of a base64 spelling. */
const withLowBits = (spelling: string, bits: number, url: boolean) => {
  const alphabet = url ? B64.replace("+/", "-_") : B64;
  const last = url ? spelling.length - 1 : spelling.length - 3;
  const value = alphabet.indexOf(spelling[last]!) | bits;
  return `${spelling.slice(0, last)}${alphabet[value]}${spelling.slice(last + 1)}`;
};

describe("signature spellings", () => {
  it("the four spellings of the real MAC verify, to lowercase hex", async () => {
    for (const signature of spellings(mac)) {
      const result = await verify(signature);
      expect(result.success, signature).toBe(true);
      expect(result.signature).toBe(hex);
    }
  });

  it("everything else that decodes to the same bytes is malformed", async () => {
    const b64 = mac.toString("base64");
    const url = mac.toString("base64url");
    const others = [
      `${hex.slice(0, 127)}${hex[127]!.toUpperCase()}`.replace(/^[0-9]*[a-f]/, (m) => m.toUpperCase()),
      ...[1, 2, 4, 8, 15].flatMap((bits) => [withLowBits(b64, bits, false), withLowBits(url, bits, true)]),
      b64.replace(/=+$/, ""),
      `${b64.replace(/=+$/, "")}=`,
      `${url}==`,
      `${b64}=`,
      ` ${hex}`,
      `${hex}\n`,
      `sha512=${hex}`,
      b64.replace(/\+/g, "-").replace(/\//g, "_"),
    ].filter((other) => !spellings(mac).includes(other));
    expect(others.length).toBeGreaterThan(14);
    for (const other of others) {
      if (/^[0-9a-fA-F]{128}$/.test(other)) expect(Buffer.from(other, "hex").equals(mac)).toBe(true);
      expect((await verify(other)).error?.code, other).toBe("ERR_WEBHOOK_SIGNATURE_MALFORMED");
    }
  });

  it("for any MAC: the four spellings are well-formed, and mixed case or non-zero low bits are not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.integer({ min: 1, max: 15 }),
        fc.nat(127),
        async (bytes, bits, position) => {
          const other = Buffer.from(bytes);
          for (const signature of spellings(other)) {
            // Well-formed: it gets as far as the HMAC (a mismatch, unless it is the real MAC).
            const code = (await verify(signature)).error?.code;
            expect(code === undefined || code === "ERR_WEBHOOK_SIGNATURE_MISMATCH", signature).toBe(true);
          }
          const lower = other.toString("hex");
          const letters = [...lower]
            .map((char, index) => (/[a-f]/.test(char) ? index : -1))
            .filter((i) => i >= 0);
          if (letters.length > 1) {
            // Upper-case one letter (not all of them): mixed case.
            const index = letters[position % letters.length]!;
            const mixed = `${lower.slice(0, index)}${lower[index]!.toUpperCase()}${lower.slice(index + 1)}`;
            expect((await verify(mixed)).error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MALFORMED");
          }
          for (const url of [false, true]) {
            const spelling = other.toString(url ? "base64url" : "base64");
            expect((await verify(withLowBits(spelling, bits, url))).error?.code).toBe(
              "ERR_WEBHOOK_SIGNATURE_MALFORMED",
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
