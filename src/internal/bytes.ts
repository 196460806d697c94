/** Byte helpers on Web APIs only (TextEncoder, btoa/atob), for every runtime. */
const encoder = /* @__PURE__ */ new TextEncoder();

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

export function concatBytes(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(head.length + tail.length);
  bytes.set(head);
  bytes.set(tail, head.length);
  return bytes;
}

export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Decodes a 64-byte signature written as 128 hex digits (either case) or 88 characters of padded
 * standard base64 (ruling 18); anything else is `undefined`.
 */
export function decodeSignature(value: string): Uint8Array<ArrayBuffer> | undefined {
  if (/^[\da-f]{128}$/i.test(value)) {
    // A hex digit's value from its char code: "0"-"9" keep their low 4 bits, letters add 9.
    const nibble = (index: number) => {
      const code = value.charCodeAt(index);
      return (code & 15) + (code > 64 ? 9 : 0);
    };
    const bytes = new Uint8Array(64);
    for (let i = 0; i < 64; i++) bytes[i] = (nibble(2 * i) << 4) | nibble(2 * i + 1);
    return bytes;
  }
  if (/^[A-Za-z\d+/]{86}==$/.test(value)) return Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
}
