/** An RFC 6901 JSON pointer from a path: `~` becomes `~0` and `/` becomes `~1` in each segment. */
export function jsonPointer(path: readonly PropertyKey[], prefix = ""): string {
  let pointer = prefix;
  for (const segment of path) {
    const text = String(segment);
    pointer +=
      text.includes("~") || text.includes("/")
        ? `/${text.replaceAll("~", "~0").replaceAll("/", "~1")}`
        : `/${text}`;
  }
  return pointer;
}
