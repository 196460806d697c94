/** Crockford's base32 alphabet: digits and capitals without I, L, O and U. */
export const ULID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const TIME_CHARS = 10;
const RANDOM_BYTES = 10;
const MAX_TIME = 2 ** 48 - 1;

/** Writes `bytes` (80 bits) as 16 base32 characters. */
function encodeRandom(bytes: Uint8Array): string {
  let text = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += ULID_ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return text;
}

function encodeTime(time: number): string {
  let text = "";
  let rest = time;
  for (let index = 0; index < TIME_CHARS; index++) {
    text = ULID_ALPHABET[rest % 32]! + text;
    rest = Math.floor(rest / 32);
  }
  return text;
}

/** Adds one to the 80-bit big-endian number; false when it wraps around. */
function increment(bytes: Uint8Array): boolean {
  for (let index = bytes.length - 1; index >= 0; index--) {
    if (bytes[index] === 255) bytes[index] = 0;
    else {
      bytes[index]! += 1;
      return true;
    }
  }
  return false;
}

/**
 * A ULID generator (https://github.com/ulid/spec): 26 characters of Crockford base32, a 48-bit
 * millisecond time then 80 random bits from `crypto.getRandomValues`. Ids sort as they were made:
 * within one millisecond (or when the clock steps back) the random part is incremented instead of
 * drawn again, so every id is greater than the one before. `now` is injectable for tests.
 */
export function createUlidGenerator(now: () => number = Date.now): () => string {
  let lastTime = -1;
  const random = new Uint8Array(RANDOM_BYTES);
  return () => {
    let time = Math.min(Math.max(Math.floor(now()), 0), MAX_TIME);
    if (time <= lastTime) {
      time = lastTime;
      // 2^80 ids in one millisecond cannot happen; past it, borrow the next millisecond.
      if (!increment(random)) time = Math.min(lastTime + 1, MAX_TIME);
    } else crypto.getRandomValues(random);
    lastTime = time;
    return encodeTime(time) + encodeRandom(random);
  };
}

/** The time a ULID was made, in epoch milliseconds, or `undefined` for a string that is not one. */
export function ulidTime(id: string): number | undefined {
  if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id)) return undefined;
  let time = 0;
  for (const char of id.slice(0, TIME_CHARS)) time = time * 32 + ULID_ALPHABET.indexOf(char);
  return time;
}
