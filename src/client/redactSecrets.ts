/** What replaces a credential found in a service's answer. */
export const REDACTED = "[REDACTED]";

/** Parts of a credential shorter than this are too common to blot out everywhere. */
const MIN_SECRET_PART = 8;

/**
 * The strings to blot out of anything the service sends back: the whole `Authorization` value and
 * each space-separated part of it of 8 characters or more (the token after `Bearer`, say), each also
 * as JSON writes it inside a string, longest first.
 */
export function secretsOf(credentials: string): readonly string[] {
  const parts = new Set([credentials]);
  for (const part of credentials.split(" ")) if (part.length >= MIN_SECRET_PART) parts.add(part);
  for (const part of [...parts]) parts.add(JSON.stringify(part).slice(1, -1));
  return [...parts].sort((a, b) => b.length - a.length);
}

/** The text with every occurrence of every secret replaced by {@link REDACTED}. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (clean.includes(secret)) clean = clean.split(secret).join(REDACTED);
  return clean;
}
