/** Byte helpers on Web APIs only (TextEncoder, btoa/atob), for every runtime. */
const encoder = /* @__PURE__ */ new TextEncoder();

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

export function concatBytes(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(head.length + tail.length);
  bytes.set(head);
  bytes.set(tail, head.length);
  return bytes;
}

type Getter = (this: unknown) => unknown;

/** A built-in getter, called on a value: it checks the value's internal slots, which no look-alike fakes. */
const getter = (proto: object, name: string): Getter =>
  Object.getOwnPropertyDescriptor(proto, name)!.get as Getter;

/** The buffer behind a typed array or a `DataView` (from any realm), read by the built-in getters. */
function viewBuffer(view: ArrayBufferView): unknown {
  try {
    return getter(Object.getPrototypeOf(Uint8Array.prototype) as object, "buffer").call(view);
  } catch {
    return getter(DataView.prototype, "buffer").call(view);
  }
}

/**
 * Whether a value is an `ArrayBuffer`, or a view over one, whose memory was transferred away
 * (`postMessage`, `structuredClone` with `transfer`, `ArrayBuffer.prototype.transfer`): such a
 * buffer has a byte length of 0 and throws when viewed. Never throws.
 */
export function isDetached(value: unknown): boolean {
  try {
    const buffer = ArrayBuffer.isView(value) ? viewBuffer(value) : value;
    // Throws for anything but an ArrayBuffer (a SharedArrayBuffer cannot be detached).
    if (getter(ArrayBuffer.prototype, "byteLength").call(buffer) !== 0) return false;
    new Uint8Array(buffer as ArrayBuffer);
    return false;
  } catch {
    return ArrayBuffer.isView(value) || isArrayBuffer(value);
  }
}

function isArrayBuffer(value: unknown): boolean {
  try {
    getter(ArrayBuffer.prototype, "byteLength").call(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The bytes of any `ArrayBufferView` (a `Uint8Array`, `Buffer`, `DataView`, `Float64Array`…, with
 * its offset) or of an `ArrayBuffer` / `SharedArrayBuffer`, from any realm, as a view that shares
 * their memory; `undefined` for anything else, and for a detached buffer (see {@link isDetached}
 * to tell it apart). Never throws.
 */
export function bytesOf(value: unknown): Uint8Array | undefined {
  if (ArrayBuffer.isView(value)) {
    // A detached view throws here, as does nothing else.
    try {
      return windowOf(value);
    } catch {
      return undefined;
    }
  }
  // The byteLength getters check the internal slot, which a look-alike object cannot fake.
  for (const name of ["ArrayBuffer", "SharedArrayBuffer"]) {
    try {
      getter(
        (globalThis as unknown as Record<string, { prototype: object }>)[name]!.prototype,
        "byteLength",
      ).call(value);
      return new Uint8Array(value as ArrayBuffer);
    } catch {}
  }
}

/** The bytes a view covers, read with the built-in getters of its kind: a subclass's own cannot lie. */
function windowOf(view: ArrayBufferView): Uint8Array {
  const typed = Object.getPrototypeOf(Uint8Array.prototype) as object;
  let proto: object = typed;
  try {
    getter(typed, "buffer").call(view);
  } catch {
    proto = DataView.prototype;
  }
  return new Uint8Array(
    getter(proto, "buffer").call(view) as ArrayBuffer,
    getter(proto, "byteOffset").call(view) as number,
    getter(proto, "byteLength").call(view) as number,
  );
}

let hexDigits: string[] | undefined;

/** Bytes as lowercase hex digits, two per byte. */
export function toHex(bytes: Uint8Array): string {
  hexDigits ??= Array.from({ length: 256 }, (_, byte) => (byte | 256).toString(16).slice(1));
  let hex = "";
  for (const byte of bytes) hex += hexDigits[byte];
  return hex;
}

/** The Web Crypto digest of a text's UTF-8 bytes, as lowercase hex. */
export async function digestHex(algorithm: "SHA-1" | "SHA-256", text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest(algorithm, utf8(text))));
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Unpadded base64url (RFC 4648 section 5). */
export const toBase64Url = (bytes: Uint8Array): string =>
  toBase64(bytes).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/**
 * Decodes a 64-byte MAC written in one of exactly four spellings: 128 lowercase hex digits, 128
 * uppercase hex digits (not mixed), 88 characters of padded base64 or 86 of unpadded base64url,
 * both canonical (the 4 unused low bits of the last character zero, so it is one of `AQgw`).
 * Every other string, even one that decodes to the same bytes, is `undefined`: one MAC has exactly
 * four spellings.
 */
export function decodeSignature(value: string): Uint8Array<ArrayBuffer> | undefined {
  if (/^(?:[\da-f]{128}|[\dA-F]{128})$/.test(value)) {
    // A hex digit's value from its char code: "0"-"9" keep their low 4 bits, letters add 9.
    const nibble = (index: number) => {
      const code = value.charCodeAt(index);
      return (code & 15) + (code > 64 ? 9 : 0);
    };
    const bytes = new Uint8Array(64);
    for (let i = 0; i < 64; i++) bytes[i] = (nibble(2 * i) << 4) | nibble(2 * i + 1);
    return bytes;
  }
  // Padded base64, or base64url (`\w` and `-`: its alphabet exactly).
  if (/^(?:[A-Za-z\d+/]{85}[AQgw]==|[\w-]{85}[AQgw])$/.test(value)) {
    const bytes = new Uint8Array(64);
    for (let i = 0, bits = 0, held = 0, j = 0; i < 86; i++) {
      const code = value.charCodeAt(i);
      // A character's 6 bits: A-Z, a-z, 0-9, then "+" or "-" (62) and "/" or "_" (63).
      const sextet =
        code > 96
          ? code - 71
          : code > 64
            ? code === 95
              ? 63
              : code - 65
            : code > 47
              ? code + 4
              : code === 47
                ? 63
                : 62;
      held = ((held << 6) | sextet) & 0xfff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[j++] = held >> bits;
      }
    }
    return bytes;
  }
}
