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
  // Uint8Array.from converts each "0x.." string with Number().
  if (/^[\da-f]{128}$/i.test(value))
    return Uint8Array.from(value.match(/../g)!, (pair) => Number(`0x${pair}`));
  if (/^[A-Za-z\d+/]{86}==$/.test(value)) return Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
  return undefined;
}
