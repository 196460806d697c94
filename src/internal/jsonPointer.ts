/** An RFC 6901 JSON pointer from a path: `~` becomes `~0` and `/` becomes `~1` in each segment. */
export function jsonPointer(path: readonly PropertyKey[], prefix = ""): string {
  let pointer = prefix;
  for (const segment of path) {
    const text = String(segment);
    pointer += needsEscape(text) ? `/${text.replaceAll("~", "~0").replaceAll("/", "~1")}` : `/${text}`;
  }
  return pointer;
}

function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x7e || code === 0x2f) return true;
  }
  return false;
}
