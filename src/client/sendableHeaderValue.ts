/** Printable Latin-1 without controls (C0, DEL, C1), and no space at either end, which fetch would strip. */
const headerSafe = /^(?:[\x21-\x7e\xa1-\xff](?:[\x20-\x7e\xa0-\xff]*[\x21-\x7e\xa1-\xff])?)$/;

/** What a header value sent as it is must be, for messages. */
export const SENDABLE_HEADER_VALUE =
  "printable characters, no control characters (CR, LF, NUL, tab, DEL, ...), no space at either end, not empty";

/**
 * Whether a string can be sent as a header value exactly as it is: printable Latin-1, no control
 * character (CR, LF, NUL, any other C0, DEL or C1), no space at either end, not empty.
 */
export function isSendableHeaderValue(value: string): boolean {
  return headerSafe.test(value);
}
