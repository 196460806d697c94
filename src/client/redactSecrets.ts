/** What replaces an authorization value found in a service's answer. */
export const REDACTED = "[REDACTED]";

/** Parts of an authorization value shorter than this are too common to blot out everywhere. */
const MIN_SECRET_PART = 8;

/** How many layers of encoding (JSON or JavaScript escapes, percent-encoding, HTML entities) are looked through. */
const MAX_LAYERS = 4;

/** The user and password of a `Basic` credential, decoded, if it is one. */
function basicParts(authorization: string): string[] {
  const match = /^basic +([A-Za-z0-9+/=_-]+)$/i.exec(authorization);
  if (!match) return [];
  try {
    const decoded = new TextDecoder().decode(
      Uint8Array.from(atob(match[1]!.replaceAll("-", "+").replaceAll("_", "/")), (char) =>
        char.charCodeAt(0),
      ),
    );
    const colon = decoded.indexOf(":");
    return colon < 0 ? [decoded] : [decoded, decoded.slice(colon + 1)];
  } catch {
    return [];
  }
}

/**
 * The strings to blot out of anything the service sends back, for each `Authorization` value
 * given (a function may give a new one per attempt): the whole value, each space-separated part of
 * it of 8 characters or more (the token after `Bearer`, say) and, for `Basic`, the decoded
 * `user:password` and password of 8 characters or more; longest first.
 */
export function secretsOf(authorizations: readonly string[]): readonly string[] {
  const parts = new Set<string>();
  for (const authorization of authorizations) {
    parts.add(authorization);
    for (const part of [...authorization.split(" "), ...basicParts(authorization)]) {
      if (part.length >= MIN_SECRET_PART) parts.add(part);
    }
  }
  return [...parts].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** One case-insensitive pattern for all the secrets (over-redacting a differently cased text is harmless). */
const patterns = new WeakMap<readonly string[], RegExp>();
function patternOf(secrets: readonly string[]): RegExp | undefined {
  if (secrets.length === 0) return undefined;
  let pattern = patterns.get(secrets);
  if (!pattern) {
    pattern = new RegExp(
      secrets
        .filter((secret) => secret !== "")
        .map(escapeRegExp)
        .join("|") || "(?!)",
      "gi",
    );
    patterns.set(secrets, pattern);
  }
  return pattern;
}

const fromCodePoint = (code: number, original: string): string =>
  code <= 0x10ffff ? String.fromCodePoint(code) : original;

/** Backslash escapes as JSON and JavaScript write them: `\/`, `\"`, `\n`, `\u002F`, `\u{2F}`, `\x2F`. */
function unescapeBackslashes(text: string): string {
  return text.replace(
    /\\(?:u\{([0-9A-Fa-f]{1,6})\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|([^ux]))/g,
    (all, braced?: string, four?: string, two?: string, char?: string) => {
      const hex = braced ?? four ?? two;
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16), all);
      const named: Record<string, string> = {
        b: "\b",
        f: "\f",
        n: "\n",
        r: "\r",
        t: "\t",
        v: "\v",
        "0": "\0",
      };
      return named[char!] ?? char!;
    },
  );
}

const utf8 = new TextDecoder();

/** Percent-encoding, as in a URL (`%2F`), decoded leniently (invalid UTF-8 becomes U+FFFD). */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
    utf8.decode(Uint8Array.from(run.slice(1).split("%"), (hex) => Number.parseInt(hex, 16))),
  );
}

const entities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  sol: "/",
  plus: "+",
  equals: "=",
  colon: ":",
  nbsp: "\u00a0",
};

/** HTML character references: `&#x2F;`, `&#47;`, `&sol;`, `&amp;`. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#[xX]([0-9A-Fa-f]{1,6})|#(\d{1,7})|([A-Za-z]{2,6}));?/g,
    (all, hex?: string, dec?: string, name?: string) => {
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16), all);
      if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10), all);
      return entities[name!.toLowerCase()] ?? all;
    },
  );
}

/** All the decodings at once: one layer of whatever a service may have applied. */
const decodeAll = (text: string): string => decodeEntities(percentDecode(unescapeBackslashes(text)));

const contains = (text: string, pattern: RegExp): boolean => {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
};

/**
 * A decoding of the text in which a secret shows, if one does: each decoding alone, then all of
 * them at once, layer after layer.
 */
function decodingShowing(text: string, pattern: RegExp): string | undefined {
  const singles: string[] = [];
  if (text.includes("\\")) singles.push(unescapeBackslashes(text));
  if (text.includes("%")) singles.push(percentDecode(text));
  if (text.includes("+")) singles.push(percentDecode(text.replaceAll("+", " ")));
  if (text.includes("&")) singles.push(decodeEntities(text));
  for (const decoded of singles) if (decoded !== text && contains(decoded, pattern)) return decoded;
  if (singles.length === 0) return undefined;
  let deeper = text;
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const next = decodeAll(deeper);
    if (next === deeper) return undefined;
    if (contains(next, pattern)) return next;
    deeper = next;
  }
  return undefined;
}

/**
 * The text with every occurrence of every secret replaced by {@link REDACTED}, in any letter case,
 * also where the service wrote it escaped (`\/`, `\u0041`, `%2F`, `&#x2F;`, `+` for a space, or
 * several of these, a few layers deep): such a text is returned decoded, with the secret blotted out.
 * When the layers run out, the whole text is withheld.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const pattern = patternOf(secrets);
  if (!pattern) return text;
  let current = text;
  for (let layer = 0; layer <= MAX_LAYERS; layer++) {
    pattern.lastIndex = 0;
    current = current.replace(pattern, REDACTED);
    const hidden = decodingShowing(current, pattern);
    if (hidden === undefined) return current;
    current = hidden;
  }
  return REDACTED;
}

/**
 * Blots the secrets out of a value `JSON.parse` returned, in place: every string and every member
 * name, at any depth (without recursion, so depth costs no stack). Returns the value (a new string if
 * it is one) and whether anything was blotted out.
 */
export function redactJson(value: unknown, secrets: readonly string[]): { value: unknown; changed: boolean } {
  let changed = false;
  const clean = (text: string): string => {
    const redacted = redactSecrets(text, secrets);
    if (redacted !== text) changed = true;
    return redacted;
  };
  if (typeof value === "string") return { value: clean(value), changed };
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const item: unknown = node[index];
        if (typeof item === "string") node[index] = clean(item);
        else pending.push(item);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const item = record[name];
      const cleanName = clean(name);
      const cleanItem = typeof item === "string" ? clean(item) : item;
      if (typeof item === "object" && item !== null) pending.push(item);
      if (cleanName === name && cleanItem === item) continue;
      if (cleanName !== name) delete record[name];
      // defineProperty, not assignment: a member named "__proto__" stays a member.
      Object.defineProperty(record, cleanName, {
        value: cleanItem,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return { value, changed };
}
