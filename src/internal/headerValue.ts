/** A header as it arrived: its value, and whether it was sent more than once. */
export interface HeaderReading {
  /** The value; repeated values joined with ", ", as Fetch does. */
  readonly value: string;
  /** Whether the header came more than once (visible only where the headers keep repeats apart). */
  readonly repeated: boolean;
}

/**
 * Reads a header, matched case-insensitively: Fetch `Headers` (which join repeated headers with
 * ", "), Node's `IncomingHttpHeaders` (an array for a repeated header) or a plain record, in which
 * two keys differing only in case count as a repeat. `undefined` when absent or unreadable: never
 * throws, whatever it is given.
 */
export function readHeader(headers: unknown, name: string): HeaderReading | undefined {
  if (typeof headers !== "object" || headers === null) return undefined;
  const wanted = name.toLowerCase();
  try {
    if (typeof (headers as { get?: unknown }).get === "function") {
      const value: unknown = (headers as { get(name: string): unknown }).get(wanted);
      return typeof value === "string" ? { value, repeated: false } : undefined;
    }
    const values: string[] = [];
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() !== wanted) continue;
      const value: unknown = (headers as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (typeof item === "string") values.push(item);
      } else if (typeof value === "string" || typeof value === "number") values.push(String(value));
    }
    return values.length === 0 ? undefined : { value: values.join(", "), repeated: values.length > 1 };
  } catch {
    return undefined;
  }
}

/** A header's value, matched case-insensitively; repeated values are joined with ", ". */
export function headerValue(headers: unknown, name: string): string | undefined {
  return readHeader(headers, name)?.value;
}
